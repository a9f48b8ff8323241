// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// Status codes and Result<T>: how every rpgnav call reports failure. The library never throws
/// (std::bad_alloc excepted); bad input comes back as a Status with a human-readable message.

#include "rpgnav/core/assert.hpp"
#include "rpgnav/core/export.hpp"
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace rpgnav {

/// Outcome of an operation. Ok, PartialPath, StoppedAtDoor and BlockedByEntity are successes
/// (there is a path to walk).
enum class Status : std::uint8_t {
  Ok,               ///< Done as asked.
  PartialPath,      ///< Success with detail: the result leads towards, not to, the goal.
  InProgress,       ///< A sliced operation (a search or a plan) ran out of its budget: call it again.
  NoPath,           ///< The goal cannot be reached from the start.
  StartBlocked,     ///< The start tile cannot be entered by this mobility.
  GoalBlocked,      ///< The goal tile cannot be entered by this mobility.
  OutOfBounds,      ///< A position or tile lies outside the map.
  InvalidArgument,  ///< A parameter is malformed (NaN, negative size, unknown id...).
  ParseError,       ///< A file or text did not follow its format.
  IoError,          ///< A file could not be opened or read.
  StoppedAtDoor,    ///< Success with detail: the path ends in front of a door that stops the character.
  BlockedByEntity,  ///< Success with detail: the path ends in front of an entity it cannot get round.
  LimitExceeded,    ///< Refused: a fixed limit (map size, entity, door or character count) would be passed.
};

/// The enumerator's name, e.g. "NoPath".
RPGNAV_API std::string_view toString(Status status) noexcept;

/// True for the statuses that mean the operation did what was asked, perhaps only part of the way
/// (Ok, PartialPath, StoppedAtDoor, BlockedByEntity).
constexpr bool isSuccess(Status status) noexcept {
  return status == Status::Ok || status == Status::PartialPath || status == Status::StoppedAtDoor ||
         status == Status::BlockedByEntity;
}

/// A failure: a status and a message meant for a human (parsers put "file:line:column: " first).
struct Error {
  Status status = Status::InvalidArgument;
  std::string message;
};

/// Either a value or an Error. Check ok() before value(); the accessors never throw: value(),
/// operator-> and operator* on an error, and error() on a value, are bugs and go to the assert
/// handler (see assert.hpp). This check is made in every build, asserts enabled or not (it is one
/// compare, and the alternative would be undefined behaviour); should the handler return, the
/// process aborts, as there is nothing to hand back.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : m_data(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit on purpose
  Result(Error error) : m_data(std::in_place_index<1>, std::move(error)) {}  // NOLINT
  Result(Status status, std::string message) : Result(Error{status, std::move(message)}) {}

  bool ok() const noexcept { return m_data.index() == 0; }
  explicit operator bool() const noexcept { return ok(); }

  T& value() & { return *checked(std::get_if<0>(&m_data), "Result::value() on an error"); }
  const T& value() const& { return *checked(std::get_if<0>(&m_data), "Result::value() on an error"); }
  T&& value() && { return std::move(*checked(std::get_if<0>(&m_data), "Result::value() on an error")); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  /// The error; only valid when !ok().
  const Error& error() const& { return *checked(std::get_if<1>(&m_data), "Result::error() on a value"); }
  /// Status::Ok for a value, else the error's status.
  Status status() const noexcept { return ok() ? Status::Ok : std::get_if<1>(&m_data)->status; }
  /// Empty for a value, else the error's message.
  std::string_view message() const noexcept {
    return ok() ? std::string_view{} : std::string_view{std::get_if<1>(&m_data)->message};
  }

 private:
  // The alternative asked for, or the assert handler (not RPGNAV_ASSERT, which NDEBUG compiles
  // out: a null pointer must never be dereferenced).
  template <class U>
  static U* checked(U* alternative, const char* message) {
    if (alternative == nullptr) {
      detail::assertFailed("alternative != nullptr", message, __FILE__, __LINE__);
      std::abort();
    }
    return alternative;
  }

  std::variant<T, Error> m_data;
};

}  // namespace rpgnav
