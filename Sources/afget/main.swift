import AFGetCLI
import Glibc

Entry.holdClosedStandardStreams()  // before the async runtime opens descriptors of its own
exit(await Entry.run())
