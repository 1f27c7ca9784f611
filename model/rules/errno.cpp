#include "errno.hpp"

namespace niov {

std::string_view errno_name(int e) {
	switch (e) {
	case 0: return "0";
	case -kEFAULT: return "-EFAULT";
	case -kEBADF: return "-EBADF";
	case -kEAGAIN: return "-EAGAIN";
	case -kENOMEM: return "-ENOMEM";
	case -kEINVAL: return "-EINVAL";
	case -kERANGE: return "-ERANGE";
	case -kE2BIG: return "-E2BIG";
	case -kEMSGSIZE: return "-EMSGSIZE";
	case -kEOPNOTSUPP: return "-EOPNOTSUPP";
	case -kEIO: return "-EIO";
	case -kEBUSY: return "-EBUSY";
	case -kENODEV: return "-ENODEV";
	case kNotRepresentable: return "not representable";
	default: return "-E?";
	}
}

}  // namespace niov
