// Readers of `stream output` (input manual §8.14.1) and `stream motion output` (§8.14.3), in the
// order MBDyn's socketstream_out_elem.cc reads them.
#include <fmt/format.h>

#include "elements/drives/drive_registry.hpp"
#include "elements/input/drive_input.hpp"
#include "elements/input/socket_options.hpp"
#include "elements/output/stream_output.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {
namespace {

using parser::CardReader;

constexpr int stream_output_default_port = 9011;

/// `motion, [output flags, ...,] { all | <node> [, ...] }` (the `motion` keyword already read).
void read_motion(CardReader& in, BuildContext& ctx, StreamOutputParams& p) {
  using F = StreamOutputParams;
  if (in.keyword_is("output flags")) {
    for (;;) {
      const parser::SourceLocation at = in.location();
      unsigned flag = 0;
      if (in.keyword_is("position")) flag = F::Position;
      else if (in.keyword_is("orientation matrix transpose")) flag = F::OrientationTranspose;
      else if (in.keyword_is("orientation matrix")) flag = F::Orientation;
      else if (in.keyword_is("velocity")) flag = F::Velocity;
      else if (in.keyword_is("angular velocity")) flag = F::AngularVelocity;
      else break;
      const unsigned clash = flag & (F::Orientation | F::OrientationTranspose) ? F::Orientation | F::OrientationTranspose : flag;
      if (p.motion_flags & clash) throw parser::InputError(at, "this output flag is already given");
      p.motion_flags |= flag;
    }
    if (p.motion_flags == 0) in.fail_expected("an output flag (position, orientation matrix, ...)");
  } else {
    p.motion_flags = F::Position;
  }
  if (in.keyword_is("all")) {
    for (const auto& n : ctx.model().nodes())
      if (auto* s = dynamic_cast<const StructNode*>(n.get())) p.nodes.push_back(s);
    return;
  }
  do p.nodes.push_back(&ctx.struct_node(in, true));
  while (!in.at_end());
}

void read_stream_output(CardReader& in, BuildContext& ctx, unsigned label, bool motion_card) {
  StreamOutputParams p;
  // Optional (socketstream_out_elem.cc): only RTAI mailboxes need a name. `<label>, name, "..."`
  // right after the label is the element's own name, read before this reader.
  if (in.keyword_is("stream name") || in.keyword_is("name")) p.stream_name = in.string();
  if (in.keyword_is("send after")) {
    if (in.keyword_is("predict")) p.send_after_predict = true;
    else if (!in.keyword_is("convergence")) in.fail_expected("`convergence` or `predict`");
  }
  // MBDyn sends: over udp it connects to the peer's socket, which needs `create, no` (without
  // `create`, udp means `create, yes` as for the stream file driver, which MBDyn then refuses).
  const auto socket = read_socket_options(in, {.default_port = stream_output_default_port, .udp_creates = true,
                                               .udp_create = false, .udp_feature = "stream output over udp"});
  if (!socket) return;
  p.address = socket->address;
  p.create = socket->create;
  for (;;) {
    if (in.keyword_is("no signal") || in.keyword_is("signal") || in.keyword_is("blocking")) continue;
    if (in.keyword_is("non blocking")) p.non_blocking = true;
    else if (in.keyword_is("no send first")) p.send_first = false;
    else if (in.keyword_is("send first")) p.send_first = true;
    else if (in.keyword_is("do not abort if broken")) p.abort_if_broken = false;
    else if (in.keyword_is("abort if broken")) p.abort_if_broken = true;
    else break;
  }
  if (in.keyword_is("output every")) p.output_every = int(drives::read_count(in, 1, "a number of steps"));
  if (in.keyword_is("echo")) p.echo = read_stream_echo(in);  // the shift is unused, as in MBDyn
  if (motion_card || in.keyword_is("motion")) {
    in.keyword_is("motion");
    read_motion(in, ctx, p);
  } else {
    in.keyword_is("values");
    const long channels = drives::read_count(in, 1, "the number of channels");
    for (long i = 0; i < channels; ++i) {
      if (in.keyword_is("drive")) {
        p.values.push_back(read_drive(in, ctx));
      } else {
        in.keyword_is("node dof");  // the default (deprecated)
        p.values.push_back(drives::read_node_dof_value(in));
      }
    }
    if (in.keyword_is("modifier") && !in.keyword_is("copy"))
      return in.not_implemented("stream output content modifier `copy cast`");
  }
  auto e = std::make_unique<StreamOutput>(label, std::move(p));
  e->where = in.card_location();
  ctx.model().add_element(std::move(e));
}

const bool registered =
    CardRegistry::family("element").add(
        "stream output", [](CardReader& in, BuildContext& c, unsigned l) { read_stream_output(in, c, l, false); }) &&
    CardRegistry::family("element").add(
        "stream motion output", [](CardReader& in, BuildContext& c, unsigned l) { read_stream_output(in, c, l, true); }) &&
    // `output element: <label>, {socket stream | buffer stream}, ...`: MBDyn 2024's name of the
    // output elements (dataman4.cc ReadOneElem, streamoutelem.cc ReadOutputElem), of which `stream
    // output` and `stream motion output` are the deprecated forms; `motion` or `values` then says
    // the content. Buffer streams (memory shared with a program that embeds MBDyn) are not ours.
    CardRegistry::family("element").add("output element", [](CardReader& in, BuildContext& c, unsigned l) {
      if (in.peek_keyword_is("buffer stream"))
        return in.not_implemented("output element \"buffer stream\" (MBDyn's bufferstream_out_elem.cc)");
      if (!in.keyword_is("socket stream")) in.fail_expected("socket stream or buffer stream");
      read_stream_output(in, c, l, false);
    });

}  // namespace
}  // namespace mbl::elements
