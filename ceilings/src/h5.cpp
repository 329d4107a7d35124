#include "h5.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <utility>

namespace rooftop::ceilings::h5 {

hid_t check(hid_t id, const char* what) {
  if (id < 0) throw Error(std::string("HDF5: ") + what + " failed");
  return id;
}

herr_t check(herr_t status, const char* what) {
  if (status < 0) throw Error(std::string("HDF5: ") + what + " failed");
  return status;
}

void silence_library_errors() {
  static const bool done = [] {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    return true;
  }();
  (void)done;
}

Handle create_file(const std::string& path) {
  silence_library_errors();
  // The 1.8 format and later checksum the file's metadata (superblock v2, object headers
  // v2), so a damaged file is detected instead of misread; HDF5 1.8 and later read it.
  Handle access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "H5Pcreate");
  check(H5Pset_libver_bounds(access.get(), H5F_LIBVER_V18, H5F_LIBVER_LATEST),
        "H5Pset_libver_bounds");
  hid_t id = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get());
  if (id < 0) throw Error(path + ": cannot create file");
  return Handle(id, H5Fclose, "H5Fcreate");
}

Handle open_file_readonly(const std::string& path) {
  silence_library_errors();
  struct stat st {};
  if (stat(path.c_str(), &st) != 0)
    throw Error(path + ": " + (errno == ENOENT ? "no such file" : std::strerror(errno)));
  if (!S_ISREG(st.st_mode)) throw Error(path + ": not a regular file");
  if (access(path.c_str(), R_OK) != 0)
    throw Error(path + ": cannot read (" + std::strerror(errno) + ")");
  if (H5Fis_hdf5(path.c_str()) <= 0)
    throw Error(path + ": not an HDF5 file (corrupt, truncated or another format)");
  hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (id < 0) throw Error(path + ": cannot open HDF5 file (corrupt or truncated)");
  return Handle(id, H5Fclose, "H5Fopen");
}

Handle memory_file_access(std::size_t increment) {
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "H5Pcreate");
  check(H5Pset_fapl_core(fapl.get(), increment, 0), "H5Pset_fapl_core");
  return fapl;
}

std::string memory_file_name() {
  static std::atomic<unsigned long> counter{0};
  return "rooftop-image-" + std::to_string(counter++);
}

Handle open_image_readonly(const std::string& bytes) {
  silence_library_errors();
  if (bytes.size() < 8 || std::memcmp(bytes.data(), "\x89HDF\r\n\x1a\n", 8) != 0)
    throw Error("not an HDF5 image (" + std::to_string(bytes.size()) + " bytes)");
  Handle fapl = memory_file_access(64 * 1024);
  // The library copies the image; the const_cast is for the C signature only.
  check(H5Pset_file_image(fapl.get(), const_cast<char*>(bytes.data()), bytes.size()),
        "H5Pset_file_image");
  const hid_t id = H5Fopen(memory_file_name().c_str(), H5F_ACC_RDONLY, fapl.get());
  if (id < 0) throw Error("cannot open HDF5 image (corrupt or truncated)");
  return Handle(id, H5Fclose, "H5Fopen (in memory)");
}

Handle create_group(hid_t parent, const char* name) {
  return Handle(H5Gcreate2(parent, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose, name);
}

Handle open_group(hid_t parent, const char* name) {
  if (!exists(parent, name)) throw Error(std::string("missing group '") + name + "'");
  return Handle(H5Gopen2(parent, name, H5P_DEFAULT), H5Gclose, name);
}

bool exists(hid_t parent, const char* name) { return H5Lexists(parent, name, H5P_DEFAULT) > 0; }

namespace {

Handle string_type(std::size_t size) {
  Handle t(H5Tcopy(H5T_C_S1), H5Tclose, "H5Tcopy");
  check(H5Tset_size(t.get(), size), "H5Tset_size");
  check(H5Tset_strpad(t.get(), H5T_STR_NULLTERM), "H5Tset_strpad");
  return t;
}

void write_scalar_attr(hid_t obj, const char* name, hid_t type, const void* value) {
  Handle space(H5Screate(H5S_SCALAR), H5Sclose, "H5Screate");
  Handle attr(H5Acreate2(obj, name, type, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose, name);
  check(H5Awrite(attr.get(), type, value), name);
}

// An attribute holding one value: anything else would overrun the one-value buffer the
// readers give H5Aread.
Handle open_attr(hid_t obj, const char* name) {
  if (!has_attr(obj, name)) throw Error(std::string("missing attribute '") + name + "'");
  Handle attr(H5Aopen(obj, name, H5P_DEFAULT), H5Aclose, name);
  Handle space(H5Aget_space(attr.get()), H5Sclose, name);
  if (H5Sget_simple_extent_npoints(space.get()) != 1)
    throw Error(std::string("attribute '") + name + "' is not a single value");
  return attr;
}

// The values a whole number may take, lo <= 0 <= hi: a field's type, or a column's.
struct IntRange {
  std::int64_t lo;
  std::uint64_t hi;
};

// A number as it was stored: an integer of up to 64 bits of either sign, or a float.
struct StoredNumber {
  enum Kind { kSigned, kUnsigned, kFloat } kind = kSigned;
  std::int64_t i = 0;
  std::uint64_t u = 0;
  double f = 0.0;

  // Whether it is a whole number in `r`.
  bool fits(IntRange r) const {
    switch (kind) {
      case kSigned:
        return i >= r.lo && (i < 0 || static_cast<std::uint64_t>(i) <= r.hi);
      case kUnsigned:
        return u <= r.hi;
      case kFloat:  // hi + 1 as a double is exact, or rounds to the same power of two
        return std::isfinite(f) && f == std::trunc(f) && f >= static_cast<double>(r.lo) &&
               f < static_cast<double>(r.hi) + 1.0;
    }
    return false;
  }
  std::int64_t as_int64() const {  // once fits() a range within int64's
    return kind == kSigned     ? i
           : kind == kUnsigned ? static_cast<std::int64_t>(u)
                               : static_cast<std::int64_t>(f);
  }
  std::string text() const {
    if (kind == kSigned) return std::to_string(i);
    if (kind == kUnsigned) return std::to_string(u);
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", f);
    return buf;
  }
};

// The 8-byte native type a stored number is read into without losing anything (a float
// wider than a double becomes infinite, and out of every range), and its kind.
std::pair<hid_t, StoredNumber::Kind> wide_type(hid_t stored, const std::string& what) {
  if (H5Tget_class(stored) == H5T_FLOAT) return {H5T_NATIVE_DOUBLE, StoredNumber::kFloat};
  if (H5Tget_size(stored) > sizeof(std::int64_t))
    throw Error(what + " is an integer wider than 64 bits");
  if (H5Tget_sign(stored) == H5T_SGN_NONE) return {H5T_NATIVE_UINT64, StoredNumber::kUnsigned};
  return {H5T_NATIVE_INT64, StoredNumber::kSigned};
}

StoredNumber stored_number(StoredNumber::Kind kind, const void* bytes) {
  StoredNumber v;
  v.kind = kind;
  if (kind == StoredNumber::kSigned) std::memcpy(&v.i, bytes, sizeof v.i);
  if (kind == StoredNumber::kUnsigned) std::memcpy(&v.u, bytes, sizeof v.u);
  if (kind == StoredNumber::kFloat) std::memcpy(&v.f, bytes, sizeof v.f);
  return v;
}

// The longest string attribute read, its NUL included: the longest text a writer writes.
constexpr std::size_t kMaxStringAttr = kMaxTextBytes + 1;

// A numeric attribute of a number class (a string read as a number converts nothing).
Handle open_number_attr(hid_t obj, const char* name) {
  Handle attr = open_attr(obj, name);
  Handle type(H5Aget_type(attr.get()), H5Tclose, name);
  const H5T_class_t c = H5Tget_class(type.get());
  if (c != H5T_INTEGER && c != H5T_FLOAT)
    throw Error(std::string("attribute '") + name + "' is not a number");
  return attr;
}

}  // namespace

void write_attr(hid_t obj, const char* name, const std::string& value) {
  check_text(value, std::string("attribute '") + name + "'");
  Handle t = string_type(value.size() + 1);
  write_scalar_attr(obj, name, t.get(), value.c_str());
}

void write_attr(hid_t obj, const char* name, double value) {
  write_scalar_attr(obj, name, H5T_NATIVE_DOUBLE, &value);
}

void write_attr(hid_t obj, const char* name, std::int64_t value) {
  write_scalar_attr(obj, name, H5T_NATIVE_INT64, &value);
}

bool has_attr(hid_t obj, const char* name) { return H5Aexists(obj, name) > 0; }

std::string read_string_attr(hid_t obj, const char* name) {
  Handle attr = open_attr(obj, name);
  Handle type(H5Aget_type(attr.get()), H5Tclose, name);
  if (H5Tget_class(type.get()) != H5T_STRING)
    throw Error(std::string("attribute '") + name + "' is not a string");
  if (H5Tis_variable_str(type.get()) > 0) {  // written by h5py and friends
    Handle mem = string_type(0);
    check(H5Tset_size(mem.get(), H5T_VARIABLE), "H5Tset_size");
    char* value = nullptr;
    check(H5Aread(attr.get(), mem.get(), &value), name);
    std::string out = value ? value : "";
    H5free_memory(value);
    if (out.size() > kMaxTextBytes)
      throw Error(std::string("attribute '") + name + "' has an implausible size");
    return out;
  }
  const std::size_t size = H5Tget_size(type.get());
  if (size == 0 || size > kMaxStringAttr)
    throw Error(std::string("attribute '") + name + "' has an implausible size");
  // Read as stored (no conversion), so that text after a NUL is seen, not dropped.
  std::vector<char> buf(size, '\0');
  check(H5Aread(attr.get(), type.get(), buf.data()), name);
  const std::size_t end = strnlen(buf.data(), size);
  for (std::size_t i = end; i < size; ++i)
    if (buf[i] != '\0' && buf[i] != ' ')
      throw Error(std::string("attribute '") + name + "' holds text after a NUL");
  return std::string(buf.data(), end);
}

double read_double_attr(hid_t obj, const char* name) {
  Handle attr = open_number_attr(obj, name);
  double v = 0.0;
  check(H5Aread(attr.get(), H5T_NATIVE_DOUBLE, &v), name);
  return v;
}

std::int64_t read_int_attr(hid_t obj, const char* name, std::int64_t lo, std::int64_t hi) {
  const std::string what = std::string("attribute '") + name + "'";
  Handle attr = open_number_attr(obj, name);
  Handle type(H5Aget_type(attr.get()), H5Tclose, name);
  const auto [wide, kind] = wide_type(type.get(), what);
  unsigned char bytes[8] = {};
  check(H5Aread(attr.get(), wide, bytes), name);
  const StoredNumber v = stored_number(kind, bytes);
  if (hi < 0 || !v.fits({lo, static_cast<std::uint64_t>(hi)}))
    throw Error(what + " is " + v.text() + ", out of range");
  return v.as_int64();
}

Handle compound_type(std::size_t row_size, const std::vector<Field>& fields) {
  Handle t(H5Tcreate(H5T_COMPOUND, row_size), H5Tclose, "H5Tcreate");
  for (const Field& f : fields) {
    if (f.type < 0) {
      Handle s = string_type(f.size);
      check(H5Tinsert(t.get(), f.name, f.offset, s.get()), f.name);
    } else {
      check(H5Tinsert(t.get(), f.name, f.offset, f.type), f.name);
    }
  }
  return t;
}

void write_table(hid_t parent, const char* name, const Handle& type, const void* rows,
                 std::size_t count) {
  hsize_t dims[1] = {count};
  Handle space(H5Screate_simple(1, dims, nullptr), H5Sclose, "H5Screate_simple");
  Handle set(
      H5Dcreate2(parent, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
      H5Dclose, name);
  if (count > 0) check(H5Dwrite(set.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, rows), name);
}

namespace {

// No rooftop file comes near this many rows in one table (a sweep has thousands), rows
// this wide (a kernel's row, the widest, is under 2 KiB) or this many bytes in one table;
// a damaged size would otherwise be allocated (a 4-byte change: 4 GiB) before HDF5 fails.
constexpr hsize_t kMaxRows = hsize_t{1} << 24;
constexpr std::size_t kMaxRowBytes = 64 << 10;
constexpr std::size_t kMaxTableBytes = std::size_t{256} << 20;

// The stored row type, checked before any H5Dread: libhdf5 converts compound rows
// without checking that each column lies inside its row, and reads out of bounds
// (and crashes) when a damaged file says otherwise.
void check_row_type(hid_t type, const char* table) {
  const auto fail = [&](const std::string& why) {
    throw Error(std::string("table '") + table + "': " + why);
  };
  if (H5Tget_class(type) != H5T_COMPOUND) fail("is not a table of rows");
  const std::size_t row = H5Tget_size(type);
  const int n = H5Tget_nmembers(type);
  if (row == 0 || n <= 0) fail("has no columns");
  if (row > kMaxRowBytes)
    fail("rows of " + std::to_string(row) + " bytes, wider than the " +
         std::to_string(kMaxRowBytes >> 10) + " KiB a rooftop row may have");
  for (int i = 0; i < n; ++i) {
    const unsigned u = static_cast<unsigned>(i);
    Handle member(H5Tget_member_type(type, u), H5Tclose, table);
    const H5T_class_t c = H5Tget_class(member.get());
    if (c != H5T_INTEGER && c != H5T_FLOAT && c != H5T_STRING)
      fail("column " + std::to_string(i) + " is of a type rooftop never writes");
    if (c == H5T_STRING && H5Tis_variable_str(member.get()) > 0)
      fail("column " + std::to_string(i) + " is a variable-length string");
    const std::size_t offset = H5Tget_member_offset(type, u);
    const std::size_t size = H5Tget_size(member.get());
    if (size == 0 || offset > row || size > row - offset)
      fail("column " + std::to_string(i) + " lies outside its row (offset " +
           std::to_string(offset) + ", size " + std::to_string(size) + ", row " +
           std::to_string(row) + " bytes)");
    if (c == H5T_FLOAT || c == H5T_INTEGER) {
      const std::size_t precision = H5Tget_precision(member.get());
      const int bit_offset = H5Tget_offset(member.get());
      if (precision == 0 || bit_offset < 0 ||
          precision + static_cast<std::size_t>(bit_offset) > 8 * size)
        fail("column " + std::to_string(i) + " has an inconsistent number layout");
    }
  }
}

// Every column the reader asks for must be stored: HDF5 would leave a missing one zero,
// and a zero read as a measurement is wrong. Columns added by a later minor version are
// the exception (a file from before them reads them as 0, which the readers expect).
constexpr const char* kAddedColumns[] = {"ilp", "clock_ghz", "disturbance",   // 1.3, 1.5, 1.6
                                         "flops_bf16", "flops_fp8", "counted"};  // 1.8

void check_columns_present(hid_t stored, hid_t wanted, const char* table) {
  const int n = H5Tget_nmembers(wanted);
  for (int i = 0; i < n; ++i) {
    char* name = H5Tget_member_name(wanted, static_cast<unsigned>(i));
    if (!name) throw Error(std::string("table '") + table + "': H5Tget_member_name failed");
    const std::string column = name;
    H5free_memory(name);
    if (H5Tget_member_index(stored, column.c_str()) >= 0) continue;
    bool added_later = false;
    for (const char* c : kAddedColumns) added_later = added_later || column == c;
    if (!added_later)
      throw Error(std::string("table '") + table + "' has no column '" + column + "'");
  }
}

// The range of a native integer type: what a table's member holds.
IntRange range_of(hid_t type) {
  const std::size_t bits = H5Tget_precision(type);
  if (H5Tget_sign(type) == H5T_SGN_NONE)
    return {0, bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1};
  return {-static_cast<std::int64_t>((std::uint64_t{1} << (bits - 1)) - 1) - 1,
          (std::uint64_t{1} << (bits - 1)) - 1};
}

// Integer columns stored otherwise than read (wider, of the other sign, as floats) are
// first read at their stored width and checked against the member's range: HDF5's own
// conversion would clamp a value that does not fit, 4294967298 samples read as 2^31 - 1.
void check_integer_columns(hid_t set, hid_t stored, hid_t wanted, const char* table,
                           std::size_t rows) {
  const int n = H5Tget_nmembers(wanted);
  for (int i = 0; i < n; ++i) {
    const unsigned u = static_cast<unsigned>(i);
    Handle member(H5Tget_member_type(wanted, u), H5Tclose, table);
    if (H5Tget_class(member.get()) != H5T_INTEGER) continue;
    char* name = H5Tget_member_name(wanted, u);
    if (!name) throw Error(std::string("table '") + table + "': H5Tget_member_name failed");
    const std::string column = name;
    H5free_memory(name);
    const int index = H5Tget_member_index(stored, column.c_str());
    if (index < 0) continue;  // a column added later, read as 0
    Handle on_disk(H5Tget_member_type(stored, static_cast<unsigned>(index)), H5Tclose, table);
    if (H5Tequal(on_disk.get(), member.get()) > 0 || rows == 0) continue;
    const std::string what = std::string("table '") + table + "': column '" + column + "'";
    const auto [wide, kind] = wide_type(on_disk.get(), what);
    Handle one(H5Tcreate(H5T_COMPOUND, 8), H5Tclose, "H5Tcreate");
    check(H5Tinsert(one.get(), column.c_str(), 0, wide), table);
    std::vector<std::uint64_t> values(rows);
    check(H5Dread(set, one.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), table);
    const IntRange range = range_of(member.get());
    for (std::size_t r = 0; r < rows; ++r) {
      const StoredNumber v = stored_number(kind, &values[r]);
      if (!v.fits(range))
        throw Error(std::string("table '") + table + "' row " + std::to_string(r) + ": column '" +
                    column + "' is " + v.text() + ", out of range");
    }
  }
}

}  // namespace

bool has_column(hid_t parent, const char* table, const char* column) {
  if (!exists(parent, table)) return false;
  Handle set(H5Dopen2(parent, table, H5P_DEFAULT), H5Dclose, table);
  Handle stored(H5Dget_type(set.get()), H5Tclose, table);
  return H5Tget_class(stored.get()) == H5T_COMPOUND &&
         H5Tget_member_index(stored.get(), column) >= 0;
}

std::size_t read_table(hid_t parent, const char* name, const Handle& type,
                       std::vector<unsigned char>& buffer, std::size_t row_size) {
  if (!exists(parent, name)) throw Error(std::string("missing table '") + name + "'");
  Handle set(H5Dopen2(parent, name, H5P_DEFAULT), H5Dclose, name);
  Handle space(H5Dget_space(set.get()), H5Sclose, name);
  if (H5Sget_simple_extent_ndims(space.get()) != 1)
    throw Error(std::string("table '") + name + "' is not one-dimensional");
  hsize_t dims[1] = {0};
  check(H5Sget_simple_extent_dims(space.get(), dims, nullptr), name);
  if (dims[0] > kMaxRows)
    throw Error(std::string("table '") + name + "' has " + std::to_string(dims[0]) +
                " rows, more than the " + std::to_string(kMaxRows) + " a rooftop file holds");
  Handle stored(H5Dget_type(set.get()), H5Tclose, name);
  check_row_type(stored.get(), name);
  check_columns_present(stored.get(), type.get(), name);
  if (dims[0] * std::max(H5Tget_size(stored.get()), row_size) > kMaxTableBytes)
    throw Error(std::string("table '") + name + "' has " + std::to_string(dims[0]) +
                " rows, more than the " + std::to_string(kMaxTableBytes >> 20) +
                " MiB a rooftop table may hold");
  check_integer_columns(set.get(), stored.get(), type.get(), name,
                        static_cast<std::size_t>(dims[0]));
  buffer.assign(static_cast<std::size_t>(dims[0]) * row_size, 0);
  if (dims[0] > 0)
    check(H5Dread(set.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()), name);
  return static_cast<std::size_t>(dims[0]);
}

}  // namespace rooftop::ceilings::h5
