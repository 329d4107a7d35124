// Nsight Systems' SQLite export (`nsys export --type sqlite`, or the .sqlite `nsys stats`
// leaves beside a report): every kernel launch is a row of CUPTI_ACTIVITY_KIND_KERNEL
// (start and end in ns), its names ids into StringIds (demangledName, shortName,
// mangledName). Read with SQLite's C library from memory, read-only, with SQLite's
// defensive mode on and a bound on the work a query may do, so that a damaged or hostile
// database ends in one line. Kernel times only, as for nsys_stats.cpp.

#include <sqlite3.h>

#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <string_view>

#include "reader.hpp"
#include "rooftop/core/error.hpp"

namespace rooftop::counters::importing {
namespace {

constexpr std::string_view kMagic("SQLite format 3\0", 16);
// SQLite virtual-machine steps a query may take (a real export of a long run needs about
// a hundred per launch); more is a hostile database.
constexpr long long kMaxSteps = 2'000'000'000;
constexpr int kStepsPerCheck = 10'000;

bool detect(std::string_view text) { return text.substr(0, kMagic.size()) == kMagic; }

struct Closer {
  void operator()(sqlite3* db) const { sqlite3_close(db); }
};
struct Finalizer {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using Db = std::unique_ptr<sqlite3, Closer>;
using Statement = std::unique_ptr<sqlite3_stmt, Finalizer>;

int count_steps(void* steps) {
  long long& n = *static_cast<long long*>(steps);
  n += kStepsPerCheck;
  return n > kMaxSteps ? 1 : 0;  // non-zero interrupts the query
}

class Database {
 public:
  Database(std::string_view bytes, std::string name) : name_(std::move(name)) {
    sqlite3* raw = nullptr;
    if (sqlite3_open_v2(":memory:", &raw, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
      sqlite3_close(raw);
      throw Error(name_ + ": cannot open an SQLite database in memory");
    }
    db_.reset(raw);
    sqlite3_db_config(raw, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_db_config(raw, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
    sqlite3_db_config(raw, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, nullptr);
    sqlite3_db_config(raw, SQLITE_DBCONFIG_ENABLE_VIEW, 0, nullptr);
    sqlite3_limit(raw, SQLITE_LIMIT_LENGTH, 1 << 24);  // a kernel name is no 16 MB
    sqlite3_progress_handler(raw, kStepsPerCheck, count_steps, &steps_);
    // SQLite takes the copy and frees it when the database closes.
    auto* copy = static_cast<unsigned char*>(sqlite3_malloc64(bytes.size()));
    if (!copy) throw Error(name_ + ": out of memory reading the database");
    std::memcpy(copy, bytes.data(), bytes.size());
    const int rc = sqlite3_deserialize(
        raw, "main", copy, static_cast<sqlite3_int64>(bytes.size()),
        static_cast<sqlite3_int64>(bytes.size()),
        SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY);
    if (rc != SQLITE_OK) fail("cannot read the database");
  }

  [[noreturn]] void fail(const std::string& what) const {
    const bool stopped = steps_ > kMaxSteps;
    throw Error(name_ + ": " + what + " (SQLite: " +
                (stopped ? std::string("more work than any export needs: stopped")
                         : std::string(sqlite3_errmsg(db_.get()))) +
                ")");
  }

  Statement prepare(const std::string& sql) const {
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db_.get(), sql.c_str(), -1, &s, nullptr) != SQLITE_OK) {
      sqlite3_finalize(s);
      fail("cannot query the database");
    }
    return Statement(s);
  }

  // Steps `s`: true for a row, false at the end.
  bool step(sqlite3_stmt* s) const {
    const int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    fail("the database is damaged or not an Nsight Systems export");
  }

  const std::string& name() const { return name_; }

 private:
  std::string name_;
  Db db_;
  long long steps_ = 0;
};

std::string text_of(sqlite3_stmt* s, int col) {
  const unsigned char* t = sqlite3_column_text(s, col);
  return t ? std::string(reinterpret_cast<const char*>(t),
                         static_cast<std::size_t>(sqlite3_column_bytes(s, col)))
           : std::string();
}

Timing times(const Input& file) {
  const Database db(file.text, file.name);
  std::set<std::string> tables, columns;
  {
    const Statement s = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'");
    while (db.step(s.get())) tables.insert(text_of(s.get(), 0));
  }
  if (!tables.count("CUPTI_ACTIVITY_KIND_KERNEL") || !tables.count("StringIds")) {
    if (tables.count("TARGET_INFO_SESSION_START_TIME") || tables.count("StringIds"))
      throw Error(file.name +
                  ": an Nsight Systems export without kernels (no CUPTI_ACTIVITY_KIND_KERNEL "
                  "table: profile with --trace=cuda)");
    throw Error(file.name +
                ": an SQLite database, not an Nsight Systems export (no "
                "CUPTI_ACTIVITY_KIND_KERNEL and StringIds tables)");
  }
  {
    const Statement s = db.prepare("SELECT name FROM pragma_table_info('CUPTI_ACTIVITY_KIND_KERNEL')");
    while (db.step(s.get())) columns.insert(text_of(s.get(), 0));
  }
  for (const char* c : {"start", "end"})
    if (!columns.count(c))
      throw Error(file.name + ": CUPTI_ACTIVITY_KIND_KERNEL has no " + c + " column");
  // The name as the profilers print it by default: demangled, else short, else mangled.
  std::string name_column;
  for (const char* c : {"demangledName", "shortName", "mangledName"})
    if (columns.count(c)) {
      name_column = c;
      break;
    }
  if (name_column.empty())
    throw Error(file.name + ": CUPTI_ACTIVITY_KIND_KERNEL has no kernel name column "
                            "(demangledName, shortName or mangledName)");
  Timing timing;
  timing.file = file.name;
  timing.kind = "nsys CUPTI_ACTIVITY_KIND_KERNEL";
  const Statement s = db.prepare("SELECT k.start, k.end, n.value FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                                 "LEFT JOIN StringIds n ON n.id = k." +
                                 name_column + " ORDER BY k.start");
  long long bad = 0, unnamed = 0;
  while (db.step(s.get())) {
    const sqlite3_int64 start = sqlite3_column_int64(s.get(), 0),
                        end = sqlite3_column_int64(s.get(), 1);
    if (sqlite3_column_type(s.get(), 0) != SQLITE_INTEGER ||
        sqlite3_column_type(s.get(), 1) != SQLITE_INTEGER || end < start) {
      ++bad;
      continue;
    }
    std::string name = text_of(s.get(), 2);
    if (name.empty()) {
      ++unnamed;
      continue;
    }
    timing.add_launch(name, static_cast<double>(end - start) * 1e-9);
  }
  if (bad > 0)
    timing.notes.push_back(file.name + ": " + std::to_string(bad) +
                           " kernel row(s) without a start and an end at or after it skipped");
  if (unnamed > 0)
    timing.notes.push_back(file.name + ": " + std::to_string(unnamed) +
                           " kernel row(s) whose name is not in StringIds skipped");
  return timing;
}

Reading read(const Input& file, const Timing* given) {
  const Timing timing = times(file);
  return timed_reading(timing, "nsys-sqlite", "nsys-import", given);
}

}  // namespace

Reader nsys_sqlite_reader() { return {"Nsight Systems SQLite export", detect, read, times, true}; }

}  // namespace rooftop::counters::importing
