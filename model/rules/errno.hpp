// Kernel errno values the model returns, independent of the host's
// <errno.h> so reports are the same on every machine.
#pragma once

#include <string_view>

namespace niov {

inline constexpr int kEFAULT = 14;
inline constexpr int kEBADF = 9;
inline constexpr int kEAGAIN = 11;
inline constexpr int kENOMEM = 12;
inline constexpr int kEINVAL = 22;
inline constexpr int kERANGE = 34;
inline constexpr int kE2BIG = 7;
inline constexpr int kEMSGSIZE = 90;
inline constexpr int kEOPNOTSUPP = 95;
inline constexpr int kEIO = 5;
inline constexpr int kEBUSY = 16;
inline constexpr int kENODEV = 19;

// A plugin's answer for an input the code cannot be handed at all (ABI v2
// NIOV_E_NOT_REPRESENTABLE): not an errno, never compared.
inline constexpr int kNotRepresentable = -100000;

// "-EINVAL" for -22, "0" for 0, "not representable", "-E?" for unknown values.
std::string_view errno_name(int negative_errno);

}  // namespace niov
