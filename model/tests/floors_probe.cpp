// Compiled with the rules floor's include path only (CMakeLists.txt,
// floors_build_*): the rules see their own headers, and a rule file
// including the worker does not build.
#include "rules.hpp"
#ifdef NIOV_PROBE_UPWARD
#include "worker.hpp"
#endif
