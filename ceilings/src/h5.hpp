#pragma once
// A small RAII layer over the HDF5 C API: owning handles, checked calls, string and
// number attributes, and compound tables of fixed-size rows. Private to this library.

#include <hdf5.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "rooftop/ceilings/validate.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/terminal.hpp"

namespace rooftop::ceilings::h5 {

// Throws with the failing operation named; HDF5's own error stack is silenced once.
hid_t check(hid_t id, const char* what);
herr_t check(herr_t status, const char* what);
void silence_library_errors();

class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, Closer close, const char* what) : id_(check(id, what)), close_(close) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& o) noexcept : id_(std::exchange(o.id_, -1)), close_(o.close_) {}
  Handle& operator=(Handle&& o) noexcept {
    if (this != &o) {
      reset();
      id_ = std::exchange(o.id_, -1);
      close_ = o.close_;
    }
    return *this;
  }
  ~Handle() { reset(); }
  hid_t get() const { return id_; }
  void reset() {
    if (id_ >= 0 && close_) close_(id_);
    id_ = -1;
  }

 private:
  hid_t id_ = -1;
  Closer close_ = nullptr;
};

Handle create_file(const std::string& path);
Handle open_file_readonly(const std::string& path);  // throws a one-line, user-facing error
// Files that live in memory only (the core driver, no backing store): the access list
// with `increment` bytes of growth, a name unique in this process (the library knows
// such files by name while they are open), and an image opened read-only (the library
// copies it); an image HDF5 cannot open throws "cannot open HDF5 image (...)".
Handle memory_file_access(std::size_t increment);
std::string memory_file_name();
Handle open_image_readonly(const std::string& bytes);
Handle create_group(hid_t parent, const char* name);
Handle open_group(hid_t parent, const char* name);
bool exists(hid_t parent, const char* name);

// Text is refused unless it reads back unchanged (check_text: no NUL, at most 1 MiB).
void write_attr(hid_t obj, const char* name, const std::string& value);
void write_attr(hid_t obj, const char* name, double value);
void write_attr(hid_t obj, const char* name, std::int64_t value);
bool has_attr(hid_t obj, const char* name);
std::string read_string_attr(hid_t obj, const char* name);
double read_double_attr(hid_t obj, const char* name);
// An integer attribute read at the width and sign it was stored with (a float one must
// hold a whole number), into a field of type T: outside stored_range<T>() it is refused
// with its value as stored, where a conversion to T would have cut or clamped it.
std::int64_t read_int_attr(hid_t obj, const char* name, std::int64_t lo, std::int64_t hi);
template <class T>
T read_int_attr(hid_t obj, const char* name) {
  const auto [lo, hi] = stored_range<T>();
  return static_cast<T>(read_int_attr(obj, name, lo, hi));
}

// Describes one member of a compound row type; built with the helpers below.
struct Field {
  const char* name;
  std::size_t offset;
  hid_t type;        // native numeric type, or -1 for a fixed-size string
  std::size_t size;  // string capacity in bytes (fixed strings only)
};
// The HDF5 type of a numeric column, from its member's C++ type.
template <class T>
hid_t native_type() {
  if constexpr (std::is_same_v<T, double>) return H5T_NATIVE_DOUBLE;
  else if constexpr (std::is_same_v<T, std::int32_t>) return H5T_NATIVE_INT32;
  else if constexpr (std::is_same_v<T, std::uint64_t>) return H5T_NATIVE_UINT64;
  else static_assert(sizeof(T) == 0, "no HDF5 column type for this member");
}
template <class Row, class T>
Field field(const char* name, std::size_t offset, T Row::*) {
  return {name, offset, native_type<T>(), 0};
}
template <class Row, std::size_t N>
Field field(const char* name, std::size_t offset, char (Row::*)[N]) {
  return {name, offset, -1, N};
}
// One column of a row type, named as its member: the member's name is the schema's.
#define ROOFTOP_H5_FIELD(Row, member) \
  ::rooftop::ceilings::h5::field<Row>(#member, offsetof(Row, member), &Row::member)

Handle compound_type(std::size_t row_size, const std::vector<Field>& fields);
void write_table(hid_t parent, const char* name, const Handle& type, const void* rows,
                 std::size_t count);
// Whether a table stores a column: a column a later minor version added reads as 0 from
// an older file, where 0 may be a value.
bool has_column(hid_t parent, const char* table, const char* column);
// Reads a table whose on-disk fields match `type` by name; returns the row count.
std::size_t read_table(hid_t parent, const char* name, const Handle& type,
                       std::vector<unsigned char>& buffer, std::size_t row_size);
// The same as rows of the struct `type` describes.
template <class Row>
std::vector<Row> read_rows(hid_t parent, const char* name, const Handle& type) {
  std::vector<unsigned char> buf;
  const std::size_t n = read_table(parent, name, type, buf, sizeof(Row));
  std::vector<Row> rows(n);
  if (n) std::memcpy(rows.data(), buf.data(), n * sizeof(Row));
  return rows;
}

// Copies `value` into a fixed char field, throwing if it does not fit or would not read
// back whole (the reader's text ends at the first NUL).
template <std::size_t N>
void put(char (&dst)[N], const std::string& value, const char* field) {
  if (value.size() >= N)
    throw Error(std::string("value too long for field '") + field + "': " + core::quoted(value));
  if (value.find('\0') != std::string::npos)
    throw Error(std::string("value for field '") + field + "' holds a NUL: " + core::quoted(value));
  std::memset(dst, 0, N);
  std::memcpy(dst, value.data(), value.size());
}
template <std::size_t N>
std::string get(const char (&src)[N]) {
  return std::string(src, strnlen(src, N));
}

}  // namespace rooftop::ceilings::h5
