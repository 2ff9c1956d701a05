#include "elements/forces/external_link.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "mbdyn-like/core/interruption.hpp"
#include "parser/console.hpp"
#include "parser/math/math_parser.hpp"

namespace mbl::elements {

namespace {

namespace fs = std::filesystem;

// libmbc/mbc.h
enum : std::uint8_t { ES_REGULAR_DATA = 2, ES_GOTO_NEXT_STEP = 4, ES_ABORT = 5, ES_REGULAR_DATA_AND_GOTO_NEXT_STEP = 6, ES_NEGOTIATION = 7, ES_OK = 8 };
// MBDyn's extedge.h
enum : int { EDGE_INITIALIZING = 0, EDGE_BUSY = 1, EDGE_READ_READY = 2, EDGE_MBDYN_WRITE_DONE = 3, EDGE_GOTO_NEXT_STEP = 4, EDGE_QUIT = 5 };
constexpr int kFlagRetries = 10;  // MBDyn's max_retries of a malformed flag file

bool iequals(const std::string& a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

std::vector<std::string> edge_fields(const std::string& line) {
  std::vector<std::string> f;
  std::string cur;
  for (char ch : line) {
    if (ch == ',' || std::isspace(static_cast<unsigned char>(ch))) {
      if (!cur.empty()) f.push_back(cur);
      cur.clear();
    } else {
      cur += ch;
    }
  }
  if (!cur.empty()) f.push_back(cur);
  return f;
}

bool edge_header_is(const std::vector<std::string>& fields, std::string_view name, std::vector<std::string_view> rest) {
  if (fields.size() != rest.size() + 1 || !iequals(fields[0], name)) return false;
  for (std::size_t k = 0; k < rest.size(); ++k)
    if (fields[k + 1] != rest[k]) return false;
  return true;
}

void write_edge_values(std::ostream& os, const std::vector<double>& values) {
  for (std::size_t k = 0; k < values.size(); ++k) os << (k == 0 ? "" : k % 6 == 0 ? "\n" : " ") << values[k];
  os << '\n';
}

namespace {

/// The command of a flag file's text, or -1 when it is malformed.
int parse_flag(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  auto next_line = [&]() {
    while (std::getline(in, line))
      if (!line.empty() && line[0] != '*') return true;
    return false;
  };
  if (!next_line()) return -1;
  std::vector<std::string> f = edge_fields(line);
  if (!f.empty() && iequals(f[0], "UPDATE")) {
    if (!edge_header_is(f, "UPDATE", {"N", "0", "0", "1"}) || !next_line()) return -1;
    if (!edge_header_is(edge_fields(line), "FLAG", {"I", "1", "1", "0"})) return -1;
    if (!next_line()) return -1;
    f = edge_fields(line);
  }
  // Before EDGE 5.1 the file held the digit alone.
  if (f.size() != 1 || f[0].size() != 1 || f[0][0] < '0' || f[0][0] > '5') return -1;
  return f[0][0] - '0';
}

}  // namespace

void require_finite_load(double v, std::string_view who, std::string_view what) {
  if (!std::isfinite(v)) throw EvaluationError(fmt::format("{}: the peer sent a non-finite {} ({})", who, what, v));
}

ExternalLink::ExternalLink(ExternalCommunicator c, std::string who) : c_(std::move(c)), who_(std::move(who)) {
  if (c_.kind == ExternalCommunicator::Kind::Socket) socket_ = std::make_unique<SocketChannel>(c_.address, c_.create, who_);
}

ExternalLink::ExternalLink(ExternalCommunicator c, std::string who, std::unique_ptr<SocketChannel> channel)
    : c_(std::move(c)), who_(std::move(who)), socket_(std::move(channel)) {
  c_.kind = ExternalCommunicator::Kind::Socket;
}

ExternalLink::~ExternalLink() {
  try {
    if (socket_ && socket_->connected()) {
      const std::uint8_t u = ES_ABORT;
      socket_->send(&u, 1);
    }
    if (started_ && c_.kind == ExternalCommunicator::Kind::Edge) {
      const int flag = read_flag(false);
      if (flag == EDGE_READ_READY || flag == EDGE_GOTO_NEXT_STEP) write_flag(EDGE_QUIT);
    }
  } catch (const std::exception&) {
  }
}

void ExternalLink::pause() {
  if (interruption_signal()) throw Interruption(fmt::format("{}: interrupted while waiting for the peer", who_));
  std::this_thread::sleep_for(std::chrono::duration<double>(std::min(c_.sleep_s, 0.002)));
}

void ExternalLink::say_waiting(const std::string& what) {
  if (said_waiting_) return;
  said_waiting_ = true;
  console_note() << fmt::format("{}: waiting for {}\n", who_, what);
}

int ExternalLink::read_flag(bool wait) {
  for (int malformed = 0;;) {
    std::ifstream f(c_.flag_file);
    if (!f) {
      if (!wait) return -1;
      say_waiting(fmt::format("the flag file \"{}\"", c_.flag_file));
      pause();
      continue;
    }
    std::stringstream text;
    text << f.rdbuf();
    const int flag = parse_flag(text.str());
    if (flag >= 0) return flag;
    if (!wait) return -1;
    if (++malformed > kFlagRetries)
      throw EvaluationError(fmt::format("{}: malformed flag file \"{}\": \"{}\"", who_, c_.flag_file, text.str()));
    pause();
  }
}

void ExternalLink::write_flag(int flag) {
  // Written aside and renamed, so that the peer never reads half a file (as MBDyn).
  const std::string tmp = c_.flag_file + ".tmp";
  {
    std::ofstream f(tmp, std::ios::trunc);
    f << "UPDATE,N,0,0,1\nFLAG,I,1,1,0\n" << flag;
    if (!f) throw EvaluationError(fmt::format("{}: cannot write the flag file \"{}\"", who_, tmp));
  }
  if (std::rename(tmp.c_str(), c_.flag_file.c_str()) != 0)
    throw EvaluationError(fmt::format("{}: cannot rename \"{}\" to \"{}\"", who_, tmp, c_.flag_file));
}

void ExternalLink::negotiate(ExternalPeer& peer) {
  const std::array<std::uint32_t, 2> mine = peer.negotiation();
  std::uint8_t u = 0;
  std::array<std::uint32_t, 2> request{0, 0};
  try {
    if (c_.create) {  // MBDyn is the server: the peer asks
      if (!socket_->receive(&u, 1) || u != ES_NEGOTIATION || !socket_->receive(request.data(), sizeof request))
        throw EvaluationError(fmt::format("{}: no negotiation request from the peer", who_));
      // Only the bits MBDyn checks: a peer may add its reference node's rotation format.
      const std::uint32_t mask = peer.negotiation_mask();
      const bool match = (request[0] & mask) == (mine[0] & mask) && request[1] == mine[1];
      const std::uint8_t answer = match ? ES_OK : ES_ABORT;
      socket_->send(&answer, 1);
      if (answer != ES_OK)
        throw EvaluationError(fmt::format("{}: the peer asks for flags {:#x} and count {}, the card has {:#x} and {}", who_,
                                          request[0], request[1], mine[0], mine[1]));
      peer.negotiated(request[0]);
    } else {  // MBDyn is the client: it asks
      u = ES_NEGOTIATION;
      if (!socket_->send(&u, 1) || !socket_->send(mine.data(), sizeof mine) || !socket_->receive(&u, 1) || u != ES_OK)
        throw EvaluationError(fmt::format("{}: the peer refused the negotiation", who_));
      peer.negotiated(mine[0]);
    }
  } catch (const EvaluationError&) {
    throw;
  } catch (const std::runtime_error& e) {
    throw EvaluationError(e.what());
  }
}

void ExternalLink::start(ExternalPeer& peer) {
  started_ = true;
  first_send_ = first_recv_ = true;
  if (socket_) negotiate(peer);
  if (!tight()) send(peer, SendWhen::AfterConvergence);
}

void ExternalLink::after_predict(ExternalPeer& peer) {
  if (!started_) start(peer);
  // MBDyn stops at the end of the step in which the peer quit.
  if (peer_quit_) throw math::StopRequest(0, fmt::format("{}: the peer ended the simulation", who_));
  predicted_ = true;
  assembled_ = false;
  coupling_counter_ = 0;
  first_send_ = first_recv_ = true;
  peer_converged_ = false;
  read_loads_ = true;
  last_read_ = false;
  if (c_.send_after_predict) update(peer);
}

void ExternalLink::before_residual(ExternalPeer& peer) {
  if (!started_) start(peer);
  if (predicted_ && assembled_) update(peer);  // MBDyn's update after the Newton correction
  assembled_ = predicted_;
  receive(peer);
}

void ExternalLink::after_convergence(ExternalPeer& peer) {
  if (!predicted_) return;  // the start of the integration after the derivatives: no step was made
  // A tight peer's further exchanges were Newton iterations (converged() held the solver).
  if (c_.coupling != 1 && !c_.send_after_predict) send(peer, SendWhen::AfterConvergence);
  predicted_ = false;
}

void ExternalLink::update(ExternalPeer& peer) {
  const bool loose = c_.coupling == ExternalCommunicator::kLoose;
  if ((tight() && ++coupling_counter_ % c_.coupling == 0) || (loose && c_.send_after_predict))
    send(peer, loose ? SendWhen::AfterConvergence : first_send_ ? SendWhen::FirstTime : SendWhen::Regular);
}

void ExternalLink::send(ExternalPeer& peer, SendWhen when) {
  if (send_begin(when)) {
    if (socket_) {
      peer.append_motion_bytes(socket_out_);
      if (!socket_->send(socket_out_.data(), socket_out_.size())) peer_quit_ = true;
    } else {
      peer.write_motion(out_, c_.kind);
    }
    first_send_ = false;
  }
  send_end(when);
}

void ExternalLink::receive(ExternalPeer& peer) {
  const bool once = c_.coupling == ExternalCommunicator::kLoose || c_.coupling == ExternalCommunicator::kStaggered;
  if ((tight() && !first_send_ && coupling_counter_ % c_.coupling == 0) || (once && first_recv_)) {
    if (receive_begin()) {
      if (socket_) {
        socket_in_.resize(peer.load_bytes());
        if (socket_->receive(socket_in_.data(), socket_in_.size())) peer.read_loads(socket_in_);
        else peer_quit_ = true;
      } else {
        peer.read_loads(in_, c_.kind);
      }
      first_recv_ = false;
    }
    if (receive_end()) peer_converged_ = true;
  }
  if (c_.coupling == ExternalCommunicator::kNone) peer_converged_ = true;
}

bool ExternalLink::send_begin(SendWhen when) {
  switch (c_.kind) {
    case ExternalCommunicator::Kind::File: {
      while (c_.no_clobber && fs::exists(c_.output_file)) {
        say_waiting(fmt::format("the peer to remove \"{}\"", c_.output_file));
        pause();
      }
      out_.open(c_.output_file + ".tmp", std::ios::trunc);
      if (!out_) throw EvaluationError(fmt::format("{}: cannot write \"{}.tmp\"", who_, c_.output_file));
      out_.clear();
      if (c_.precision != 0) out_.precision(c_.precision);
      out_.setf(std::ios::scientific, std::ios::floatfield);
      return true;
    }
    case ExternalCommunicator::Kind::Edge:
      if (!read_loads_) return false;
      for (;;) {
        const int flag = read_flag(true);
        if (flag == EDGE_INITIALIZING || flag == EDGE_BUSY) {
          say_waiting(fmt::format("the peer to be ready (flag file \"{}\")", c_.flag_file));
          pause();
          continue;
        }
        if (flag != EDGE_READ_READY && flag != EDGE_GOTO_NEXT_STEP) return false;
        out_.open(c_.data_file, std::ios::trunc);
        if (!out_) throw EvaluationError(fmt::format("{}: cannot write \"{}\"", who_, c_.data_file));
        out_.precision(c_.precision);
        out_.setf(std::ios::scientific, std::ios::floatfield);
        return true;
      }
    case ExternalCommunicator::Kind::Socket:
      if (!read_loads_ || socket_->abandoned()) return false;
      socket_out_.assign(1, char(when == SendWhen::AfterConvergence ? ES_REGULAR_DATA_AND_GOTO_NEXT_STEP : ES_REGULAR_DATA));
      return true;
  }
  return false;
}

void ExternalLink::send_end(SendWhen when) {
  switch (c_.kind) {
    case ExternalCommunicator::Kind::File: {
      out_.close();
      const std::string tmp = c_.output_file + ".tmp";
      if (std::rename(tmp.c_str(), c_.output_file.c_str()) != 0)
        throw EvaluationError(fmt::format("{}: cannot rename \"{}\" to \"{}\"", who_, tmp, c_.output_file));
      break;
    }
    case ExternalCommunicator::Kind::Edge:
      if (!read_loads_) return;
      if (out_.is_open()) out_.close();
      if (when == SendWhen::AfterConvergence) read_loads_ = true;
      write_flag(EDGE_MBDYN_WRITE_DONE);
      break;
    case ExternalCommunicator::Kind::Socket: break;
  }
}

bool ExternalLink::receive_begin() {
  switch (c_.kind) {
    case ExternalCommunicator::Kind::File:
      for (;;) {
        in_.clear();
        in_.open(c_.input_file);
        if (in_) return true;
        say_waiting(fmt::format("the input file \"{}\"", c_.input_file));
        pause();
      }
    case ExternalCommunicator::Kind::Edge:
      for (;;) {
        const int flag = read_flag(true);
        if (flag == EDGE_READ_READY) {
          in_.clear();
          in_.open(c_.data_file);
          if (!in_) throw EvaluationError(fmt::format("{}: cannot read \"{}\"", who_, c_.data_file));
          return true;
        }
        if (flag == EDGE_GOTO_NEXT_STEP || flag == EDGE_QUIT) {
          read_loads_ = false;
          peer_quit_ = flag == EDGE_QUIT;
          return false;
        }
        say_waiting(fmt::format("the peer's loads (flag file \"{}\")", c_.flag_file));
        pause();
      }
    case ExternalCommunicator::Kind::Socket: {
      if (!read_loads_ || socket_->abandoned()) return false;
      std::uint8_t u = 0;
      if (!socket_->receive(&u, 1)) {
        peer_quit_ = true;
        return false;
      }
      switch (u) {
        case ES_REGULAR_DATA: return true;
        case ES_REGULAR_DATA_AND_GOTO_NEXT_STEP: last_read_ = true; return true;
        case ES_GOTO_NEXT_STEP: read_loads_ = false; return false;  // the last loads stay
        case ES_ABORT: read_loads_ = false; peer_quit_ = true; return false;
        default: throw EvaluationError(fmt::format("{}: unknown command {} from the peer", who_, unsigned(u)));
      }
    }
  }
  return false;
}

bool ExternalLink::receive_end() {
  switch (c_.kind) {
    case ExternalCommunicator::Kind::File: {
      in_.close();
      std::error_code ec;
      if (c_.unlink_input) fs::remove(c_.input_file, ec);
      return true;  // the file peer never holds MBDyn's convergence
    }
    case ExternalCommunicator::Kind::Edge:
      if (in_.is_open()) in_.close();
      return !read_loads_;
    case ExternalCommunicator::Kind::Socket:
      if (last_read_) read_loads_ = false;
      return !read_loads_;
  }
  return true;
}

}  // namespace mbl::elements
