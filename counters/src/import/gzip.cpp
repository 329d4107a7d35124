#include "gzip.hpp"

#include <zlib.h>

#include <climits>

#include "rooftop/core/error.hpp"

namespace rooftop::counters::importing {

bool is_gzip(std::string_view text) {
  return text.size() >= 2 && static_cast<unsigned char>(text[0]) == 0x1f &&
         static_cast<unsigned char>(text[1]) == 0x8b;
}

std::string gunzip(std::string_view text, const std::string& name, std::size_t limit) {
  z_stream z{};
  // 16 + MAX_WBITS: a gzip header and trailer, not a raw zlib stream.
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
    throw Error(name + ": cannot start inflating (zlib: out of memory)");
  std::string out;
  std::size_t pos = 0;
  int rc = Z_OK;
  char buffer[1 << 16];
  while (true) {
    if (z.avail_in == 0 && pos < text.size()) {
      const std::size_t n = std::min<std::size_t>(text.size() - pos, UINT_MAX / 2);
      z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data() + pos));
      z.avail_in = static_cast<uInt>(n);
      pos += n;
    }
    z.next_out = reinterpret_cast<Bytef*>(buffer);
    z.avail_out = sizeof buffer;
    rc = inflate(&z, Z_NO_FLUSH);
    const std::size_t made = sizeof buffer - z.avail_out;
    if (out.size() + made > limit) {
      inflateEnd(&z);
      throw Error(name + ": inflates to more than " + std::to_string(limit >> 20) +
                  " MiB: not a profiler report (a gzip bomb?)");
    }
    out.append(buffer, made);
    if (rc == Z_STREAM_END) {
      // Concatenated members (gzip -c a b) continue; trailing zero padding ends it.
      const bool more = z.avail_in > 0 || pos < text.size();
      if (!more || !is_gzip(text.substr(text.size() - z.avail_in - (text.size() - pos)))) break;
      inflateReset(&z);
      continue;
    }
    if (rc == Z_BUF_ERROR && z.avail_in == 0 && pos >= text.size()) {
      inflateEnd(&z);
      throw Error(name + ": the gzip stream stops short (truncated file)");
    }
    if (rc != Z_OK && rc != Z_BUF_ERROR) {
      const std::string why = z.msg ? z.msg : "damaged data";
      inflateEnd(&z);
      throw Error(name + ": not a readable gzip stream (zlib: " + why + ")");
    }
  }
  inflateEnd(&z);
  return out;
}

}  // namespace rooftop::counters::importing
