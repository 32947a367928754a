// Errors as values for the host libraries: a small closed set of codes plus a message that names
// the problem (subgraph, tensor, op, row...). A Result<T> holds either a value or a non-OK Status.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace arenaplan {

enum class ErrorCode {
  kOk = 0,
  kInvalidArgument,   // bad usage or a malformed input file (exit code 2)
  kInfeasible,        // the problem has no solution under the constraints (exit code 1)
  kUnsupported,       // valid input that a consumer cannot handle (an op, a dtype...) (exit code 1)
  kDeadlineExceeded,  // a time limit ran out before an answer was proven
  kCancelled,         // the caller asked to stop
  kInternal,          // a bug: an invariant of ours does not hold
};

const char* ErrorCodeName(ErrorCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(ErrorCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return Status(); }
  bool ok() const { return code_ == ErrorCode::kOk; }
  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // "invalid argument: <message>"
  std::string ToString() const;

 private:
  ErrorCode code_ = ErrorCode::kOk;
  std::string message_;
};

inline Status InvalidArgument(std::string m) { return Status(ErrorCode::kInvalidArgument, std::move(m)); }
inline Status Infeasible(std::string m) { return Status(ErrorCode::kInfeasible, std::move(m)); }
inline Status Unsupported(std::string m) { return Status(ErrorCode::kUnsupported, std::move(m)); }
inline Status Internal(std::string m) { return Status(ErrorCode::kInternal, std::move(m)); }

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : data_(std::move(value)) {}        // NOLINT: implicit by design
  Result(Status status) : data_(std::move(status)) {  // NOLINT
    if (std::get<Status>(data_).ok()) data_ = Internal("Result constructed from an OK status");
  }

  bool ok() const { return std::holds_alternative<T>(data_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(data_);
  }
  T& value() & { return std::get<T>(data_); }
  const T& value() const& { return std::get<T>(data_); }
  T&& value() && { return std::get<T>(std::move(data_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Status> data_;
};

}  // namespace arenaplan

// Propagates a non-OK Status from an expression returning Status.
#define ARENAPLAN_RETURN_IF_ERROR(expr) \
  do {                                  \
    ::arenaplan::Status _st = (expr);   \
    if (!_st.ok()) return _st;          \
  } while (0)
