// The runtime's errors are rules/'s (one code per verdict on both sides of arenaplan): this header
// brings them into namespace rt for the interpreter and the kernels.
#pragma once

#include "rules/status.h"

namespace arenaplan::rt {

using rules::ErrorText;
using rules::Format;
using rules::FormatV;
using rules::SetError;
using rules::SetErrorV;
using rules::StatusCode;
using rules::StatusName;

}  // namespace arenaplan::rt
