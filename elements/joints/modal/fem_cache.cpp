#include "elements/joints/modal/fem_cache.hpp"

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace mbl::elements {
namespace {

namespace fs = std::filesystem;

constexpr char kMagic[8] = {'M', 'B', 'L', 'F', 'E', 'M', '1', '\n'};
constexpr std::uint32_t kByteOrder = 0x01020304u;

/// Raw little pieces in host byte order (the header's byte-order mark rejects a foreign cache).
class Writer {
 public:
  void bytes(const void* p, std::size_t n) { out_.write(static_cast<const char*>(p), static_cast<std::streamsize>(n)); }
  void i64(std::int64_t v) { bytes(&v, sizeof v); }
  void f64(double v) { bytes(&v, sizeof v); }
  void flag(bool v) { i64(v ? 1 : 0); }
  void text(const std::string& s) {
    i64(static_cast<std::int64_t>(s.size()));
    bytes(s.data(), s.size());
  }
  template <class M>
  void matrix(const M& m) {
    i64(m.rows());
    i64(m.cols());
    for (Eigen::Index c = 0; c < m.cols(); ++c)
      for (Eigen::Index r = 0; r < m.rows(); ++r) f64(m(r, c));
  }
  std::string str() const { return out_.str(); }

 private:
  std::ostringstream out_;
};

struct BadCache : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Reader {
 public:
  explicit Reader(std::string data) : data_(std::move(data)) {}
  void bytes(void* p, std::size_t n) {
    if (n > data_.size() - pos_) throw BadCache("truncated");
    std::memcpy(p, data_.data() + pos_, n);
    pos_ += n;
  }
  std::int64_t i64() {
    std::int64_t v = 0;
    bytes(&v, sizeof v);
    return v;
  }
  double f64() {
    double v = 0;
    bytes(&v, sizeof v);
    return v;
  }
  bool flag() { return i64() != 0; }
  std::int64_t count() {
    const std::int64_t n = i64();
    if (n < 0 || static_cast<std::uint64_t>(n) > data_.size()) throw BadCache("bad size");
    return n;
  }
  std::string text() {
    std::string s(static_cast<std::size_t>(count()), '\0');
    bytes(s.data(), s.size());
    return s;
  }
  template <class M>
  void matrix(M& m) {
    const std::int64_t rows = count(), cols = count();
    if (M::RowsAtCompileTime != Eigen::Dynamic && rows != M::RowsAtCompileTime) throw BadCache("bad shape");
    if (rows * cols > static_cast<std::int64_t>((data_.size() - pos_) / sizeof(double))) throw BadCache("truncated");
    m.resize(rows, cols);
    for (Eigen::Index c = 0; c < cols; ++c)
      for (Eigen::Index r = 0; r < rows; ++r) m(r, c) = f64();
  }
  bool at_end() const { return pos_ == data_.size(); }

 private:
  std::string data_;
  std::size_t pos_ = 0;
};

/// What must match for a cache to stand for the text file read with these thresholds.
void header(Writer& w, std::uintmax_t text_size, const FemThresholds& t) {
  w.bytes(kMagic, sizeof kMagic);
  w.bytes(&kByteOrder, sizeof kByteOrder);
  w.i64(static_cast<std::int64_t>(text_size));
  w.f64(t.mass);
  w.f64(t.damping);
  w.f64(t.stiffness);
}

template <class M>
void optional_matrix(Writer& w, const std::optional<M>& m) {
  w.flag(m.has_value());
  if (m) w.matrix(*m);
}

template <class M>
void optional_matrix(Reader& r, std::optional<M>& m) {
  if (!r.flag()) return;
  m.emplace();
  r.matrix(*m);
}

std::string encode(const FemFile& f, std::uintmax_t text_size, const FemThresholds& t) {
  Writer w;
  header(w, text_size, t);
  w.i64(f.node_count);
  w.i64(f.mode_count);
  w.i64(static_cast<std::int64_t>(f.node_labels.size()));
  for (const std::string& l : f.node_labels) w.text(l);
  w.matrix(f.q0);
  w.matrix(f.qp0);
  w.matrix(f.x_nodes);
  w.i64(static_cast<std::int64_t>(f.shapes.size()));
  for (const auto& s : f.shapes) w.matrix(s);
  w.matrix(f.M);
  w.matrix(f.K);
  optional_matrix(w, f.C);
  optional_matrix(w, f.node_mass);
  w.matrix(f.node_J);
  w.flag(f.rigid.has_value());
  if (f.rigid) {
    w.f64(f.rigid->mass);
    w.matrix(f.rigid->x_cg);
    w.matrix(f.rigid->J_cg);
  }
  for (const auto* inv : {&f.inv3, &f.inv4, &f.inv8, &f.inv5, &f.inv9}) optional_matrix(w, *inv);
  return w.str();
}

FemFile decode(std::string data, std::uintmax_t text_size, const FemThresholds& t) {
  Writer expected;
  header(expected, text_size, t);
  const std::string head = expected.str();
  if (data.compare(0, head.size(), head) != 0) throw BadCache("header");
  Reader r(data.substr(head.size()));
  FemFile f;
  f.node_count = static_cast<int>(r.count());
  f.mode_count = static_cast<int>(r.count());
  f.node_labels.resize(static_cast<std::size_t>(r.count()));
  for (std::string& l : f.node_labels) l = r.text();
  r.matrix(f.q0);
  r.matrix(f.qp0);
  r.matrix(f.x_nodes);
  f.shapes.resize(static_cast<std::size_t>(r.count()));
  for (auto& s : f.shapes) r.matrix(s);
  r.matrix(f.M);
  r.matrix(f.K);
  optional_matrix(r, f.C);
  optional_matrix(r, f.node_mass);
  r.matrix(f.node_J);
  if (r.flag()) {
    FemFile::RigidInertia rigid;
    rigid.mass = r.f64();
    r.matrix(rigid.x_cg);
    r.matrix(rigid.J_cg);
    f.rigid = rigid;
  }
  for (auto* inv : {&f.inv3, &f.inv4, &f.inv8, &f.inv5, &f.inv9}) optional_matrix(r, *inv);
  if (!r.at_end()) throw BadCache("trailing data");
  return f;
}

std::string slurp(const std::string& path) {
  std::ifstream is(path, std::ios::binary);
  std::ostringstream ss;
  ss << is.rdbuf();
  return ss.str();
}

}  // namespace

std::string fem_cache_path(const std::string& fem_name) { return fem_name + ".mbl.bin"; }

FemFile load_fem_file(const std::string& path, const parser::SourceLocation& where, const FemThresholds& thresholds,
                      const FemCacheRequest& request, const std::string& cache, FemSource* source) {
  std::error_code ec;
  const std::uintmax_t text_size = fs::file_size(path, ec);
  if (ec) return read_fem_file(path, where, thresholds);  // says it cannot open the file
  // "More recent than the text file" (input manual §8.12.31); the same time counts as newer, as
  // file times are coarser than a read followed by a write.
  const bool cache_fresh = fs::exists(cache, ec) && fs::last_write_time(cache, ec) >= fs::last_write_time(path, ec);
  if (request.use && cache_fresh) {
    try {
      FemFile f = decode(slurp(cache), text_size, thresholds);
      auto file = std::make_shared<parser::SourceFile>();
      file->path = path;
      f.file = std::move(file);
      if (source) *source = FemSource::Cache;
      return f;
    } catch (const BadCache&) {
      // Another version's or a damaged cache: the text file decides.
    }
  }
  FemFile f = read_fem_file(path, where, thresholds);
  if (source) *source = FemSource::Text;
  // Here the cache was not read (not asked, older than the text file, or not ours): `create` and
  // `update` (re)write it.
  if (request.create || request.update) {
    // Written beside, then renamed: a cache is either whole or absent.
    const std::string partial = cache + ".partial";
    {
      std::ofstream os(partial, std::ios::binary | std::ios::trunc);
      os << encode(f, text_size, thresholds);
      if (!os) {
        fs::remove(partial, ec);
        return f;
      }
    }
    fs::rename(partial, cache, ec);
    if (ec) fs::remove(partial, ec);
  }
  return f;
}

}  // namespace mbl::elements
