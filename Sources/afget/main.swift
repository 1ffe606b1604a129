import AFGetCLI
import Glibc

exit(await Entry.run())
