#include "elements/drives/template_drive.hpp"

#include <fmt/format.h>

#include "elements/drives/drive_composite.hpp"
#include "elements/drives/drive_reader.hpp"
#include "elements/drives/drive_registry.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "parser/deck/deck_reader.hpp"
#include "parser/errors.hpp"

namespace mbl::drives {

namespace {

std::string family_of(std::string_view dim) { return "template drive caller " + std::string(dim); }

template <class T>
T read_entity(parser::CardReader& in, const parser::RigidFrame* frame, VecIn vec_in) {
  if constexpr (std::is_same_v<T, double>) {
    return 1.0;
  } else if constexpr (std::is_same_v<T, Vec3>) {
    if (!frame) return in.direction(parser::RigidFrame{});
    return vec_in == VecIn::Absolute ? in.direction_abs(*frame) : in.direction(*frame);
  } else if constexpr (std::is_same_v<T, Vec6>) {
    return in.vec6();
  } else if constexpr (std::is_same_v<T, Mat3>) {
    return in.mat3();
  } else {
    return in.mat6();
  }
}

DriveCallerPtr read_component(parser::CardReader& in, DriveEnvironment& env) {
  if (in.keyword_is("inactive")) return nullptr;
  return read_drive_caller(in, env);
}

/// `component, [sym | diag,] c, c, ...` (matrix layouts: sym = upper triangle row by row).
template <class T>
TplDriveCallerPtr<T> read_components(parser::CardReader& in, DriveEnvironment& env) {
  constexpr int n = TplTraits<T>::size;
  std::vector<DriveCallerPtr> d(n);
  if constexpr (std::is_same_v<T, Mat3> || std::is_same_v<T, Mat6>) {
    constexpr int m = std::is_same_v<T, Mat3> ? 3 : 6;
    if (in.keyword_is("sym")) {
      for (int i = 0; i < m; ++i)
        for (int j = i; j < m; ++j) d[i * m + j] = d[j * m + i] = read_component(in, env);
      return std::make_shared<TplComponentDrive<T>>(std::move(d));
    }
    if (in.keyword_is("diag")) {
      for (int i = 0; i < m; ++i) d[i * m + i] = read_component(in, env);
      return std::make_shared<TplComponentDrive<T>>(std::move(d));
    }
  }
  for (int k = 0; k < n; ++k) d[k] = read_component(in, env);
  return std::make_shared<TplComponentDrive<T>>(std::move(d));
}

}  // namespace

template <class T>
TplDriveCallerPtr<T> read_tpl_drive_caller(parser::CardReader& in, DriveEnvironment& env,
                                           const parser::RigidFrame* frame, VecIn vec_in) {
  if (in.keyword_is("reference")) {
    const parser::SourceLocation at = in.location();
    const unsigned label = in.label();
    auto d = in.context().find_named<TplDriveCaller<T>>(family_of(TplTraits<T>::name),
                                                        std::to_string(label));
    if (!d)
      throw parser::InputError(at, fmt::format("template drive caller {} of dimension {} is not "
                                               "defined",
                                               label, TplTraits<T>::name));
    return d;
  }
  // `zero` is null's deprecated name, still registered for every dimension (tpldrive_impl.cc, InitTplDC).
  if (in.keyword_is("null") || in.keyword_is("zero")) return std::make_shared<TplNullDrive<T>>();
  if (in.keyword_is("component")) {
    if constexpr (std::is_same_v<T, double>)
      return std::make_shared<TplSingleDrive<double>>(1.0, read_drive_caller(in, env));
    else
      return read_components<T>(in, env);
  }
  if (in.keyword_is("array")) {
    const long n = read_count(in, 1, "the number of template drive callers");
    std::vector<TplDriveCallerPtr<T>> d;
    for (long i = 0; i < n; ++i) d.push_back(read_tpl_drive_caller<T>(in, env, frame, vec_in));
    if (n == 1) return d.front();
    return std::make_shared<TplArrayDrive<T>>(std::move(d));
  }
  // MBDyn 2024's 6D `green lagrange strain` (solidcsl.cc, the strain of a solid's nodes).
  if (in.peek_keyword_is("green lagrange strain")) {
    in.not_implemented("template drive caller \"green lagrange strain\" (MBDyn's solidcsl.cc)");
    throw CardSkipped{};
  }
  in.keyword_is("single");  // may be omitted (§2.6.42)
  T entity = read_entity<T>(in, frame, vec_in);
  auto drive = read_drive_caller(in, env);
  return std::make_shared<TplSingleDrive<T>>(std::move(entity), std::move(drive));
}

template <class T>
TplDriveCallerPtr<T> tpl_drive_caller_from_text(const std::string& text, const std::string& name,
                                                parser::ReadContext& ctx, DriveEnvironment& env,
                                                const parser::RigidFrame* frame) {
  parser::DeckReader reader(name, "drive: " + text + ";", ctx);
  parser::CardReader* card = reader.next_card();
  if (!card) throw parser::InputError({}, fmt::format("{}: expected a template drive caller", name));
  auto d = read_tpl_drive_caller<T>(*card, env, frame);
  card->expect_end();
  return d;
}

// The entity types of §2.6.42 (declared extern in the header).
#define MBL_TPL_DRIVE_INSTANTIATE(T)                                                          \
  template TplDriveCallerPtr<T> read_tpl_drive_caller<T>(parser::CardReader&,               \
                                                         DriveEnvironment&,                 \
                                                         const parser::RigidFrame*, VecIn); \
  template TplDriveCallerPtr<T> tpl_drive_caller_from_text<T>(                              \
      const std::string&, const std::string&, parser::ReadContext&, DriveEnvironment&,      \
      const parser::RigidFrame*);
MBL_TPL_DRIVE_INSTANTIATE(double)
MBL_TPL_DRIVE_INSTANTIATE(Vec3)
MBL_TPL_DRIVE_INSTANTIATE(Vec6)
MBL_TPL_DRIVE_INSTANTIATE(Mat3)
MBL_TPL_DRIVE_INSTANTIATE(Mat6)
#undef MBL_TPL_DRIVE_INSTANTIATE

namespace {

template <class T>
void read_and_store(parser::CardReader& in, DriveEnvironment& env, unsigned label,
                    const parser::SourceLocation& label_at) {
  auto& ctx = in.context();
  const std::string family = family_of(TplTraits<T>::name);
  if (ctx.find_named<TplDriveCaller<T>>(family, std::to_string(label)))
    throw parser::InputError(label_at, fmt::format("template drive caller {} of dimension {} is "
                                                   "already defined",
                                                   label, TplTraits<T>::name));
  auto d = read_tpl_drive_caller<T>(in, env);
  ctx.add_named(family, std::to_string(label), std::const_pointer_cast<TplDriveCaller<T>>(d));
}

}  // namespace

void read_template_drive_caller_card(parser::CardReader& in, DriveEnvironment& env) {
  const parser::SourceLocation label_at = in.location();
  const unsigned label = in.label();
  // `name, "<name>"` (mbpar.cc TplDriveCaller_int): a name for messages only.
  if (in.keyword_is("name")) in.string();
  const parser::SourceLocation dim_at = in.location();
  std::string dim;
  if (!in.peek_text().empty() && in.peek_text().front() == '"')
    dim = in.string();
  else
    dim = std::to_string(in.integer());
  if (dim == "1")
    read_and_store<double>(in, env, label, label_at);
  else if (dim == "3")
    read_and_store<Vec3>(in, env, label, label_at);
  else if (dim == "6")
    read_and_store<Vec6>(in, env, label, label_at);
  else if (dim == "3x3")
    read_and_store<Mat3>(in, env, label, label_at);
  else if (dim == "6x6")
    read_and_store<Mat6>(in, env, label, label_at);
  else
    throw parser::InputError(dim_at, fmt::format("expected a template dimension 1, 3, 6, \"3x3\" "
                                                 "or \"6x6\", found {}",
                                                 dim));
  in.expect_end();
}

}  // namespace mbl::drives
