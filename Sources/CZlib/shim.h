// zlib, for decoding gzip and deflate bodies (--compressed) as they arrive.
#include <zlib.h>
