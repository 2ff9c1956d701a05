#include "tools/corpus.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "mbdyn-like/output/compare.hpp"

namespace mbl::corpus {

std::vector<Deck> read_index(const fs::path& corpus_dir) {
  boost::property_tree::ptree root;
  boost::property_tree::read_json((corpus_dir / "index.json").string(), root);
  std::vector<Deck> decks;
  for (const auto& [key, e] : root) {
    Deck d;
    d.id = e.get<std::string>("id");
    d.main = e.get<std::string>("main");
    d.mbdyn_status = e.get<std::string>("mbdyn_status");
    d.mbdyn_wall_s = e.get<double>("mbdyn_wall_s", 0.0);
    d.stride = std::max<std::size_t>(1, e.get<std::size_t>("stride", 1));
    d.records = e.get<std::size_t>("records", 0);
    d.from_netcdf = e.get<bool>("from_netcdf", false);
    d.has_reference = fs::exists(corpus_dir / d.id / "mbdyn" / "ref.mov.gz");
    decks.push_back(std::move(d));
  }
  return decks;
}

const char* outcome_name(Outcome o) {
  switch (o) {
    case Outcome::Read: return "read";
    case Outcome::NotImplemented: return "not-implemented";
    case Outcome::InputError: return "input-error";
    case Outcome::Crash: return "crash";
    case Outcome::Timeout: return "timeout";
    case Outcome::Agree: return "agree";
    case Outcome::Disagree: return "disagree";
    case Outcome::SolveFail: return "solve-fail";
    case Outcome::NoReference: return "no-reference";
  }
  return "?";
}

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// How a child process ended: its exit status, or -signal, or timed_out.
struct Exit {
  int status = 0;
  bool timed_out = false;
  double wall_s = 0.0;
};

/// Runs `argv` in `cwd` (stdin /dev/null, stdout and stderr to `log`), killing its process group
/// after `timeout_s`.
Exit run_child(const fs::path& cwd, const std::vector<std::string>& argv, const fs::path& log,
               double timeout_s) {
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    if (chdir(cwd.c_str()) != 0) _exit(126);
    const int in = open("/dev/null", O_RDONLY);
    const int out = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || out < 0) _exit(126);
    dup2(in, 0);
    dup2(out, 1);
    dup2(out, 2);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  Exit e;
  if (pid < 0) {
    e.status = 127;
    return e;
  }
  int st = 0;
  for (;;) {
    const pid_t r = waitpid(pid, &st, WNOHANG);
    e.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (r == pid) break;
    if (e.wall_s > timeout_s) {
      kill(-pid, SIGKILL);
      waitpid(pid, &st, 0);
      e.timed_out = true;
      return e;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  e.status = WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
  return e;
}

/// Decompresses `gz` to `to` with gzip (present on every Debian system).
bool gunzip(const fs::path& gz, const fs::path& to) {
  const std::string cmd = fmt::format("gzip -dc '{}' > '{}'", gz.string(), to.string());
  return std::system(cmd.c_str()) == 0;
}

const std::regex kNotImplemented(R"(^\S+:\d+:\d+: not implemented: (.*)$)");
const std::regex kError(R"(^\S+:\d+:\d+: error: .*$|^mbdyn-like: error: .*$)");

/// The check of one deck.
void check(const Deck& d, const Options& o, const fs::path& work, Result& r) {
  const fs::path main = o.corpus / d.id / "deck" / d.main;
  // Run in the work folder, never in ../shared (read-only data: files a deck writes to the working
  // directory, FEM echoes and caches, go to `work`); data files are found from the deck's folder.
  const Exit e = run_child(work, {o.program.string(), "--check", fs::absolute(main).string()},
                           work / "check.txt", o.check_timeout_s);
  std::istringstream text(slurp(work / "check.txt"));
  std::string first_error;
  for (std::string line; std::getline(text, line);) {
    std::smatch m;
    if (std::regex_match(line, m, kNotImplemented)) {
      if (std::find(r.not_implemented.begin(), r.not_implemented.end(), m[1].str()) ==
          r.not_implemented.end())
        r.not_implemented.push_back(m[1].str());
    } else if (first_error.empty() && std::regex_match(line, kError)) {
      first_error = line;
    }
  }
  if (e.timed_out) {
    r.outcome = Outcome::Timeout;
    r.message = fmt::format("--check still running after {:g} s", o.check_timeout_s);
  } else if (e.status == 2 && !first_error.empty()) {
    r.outcome = Outcome::InputError;
    r.message = first_error;
  } else if (e.status != 0 && e.status != 2) {
    r.outcome = Outcome::Crash;
    r.message = fmt::format("--check exit status {}", e.status);
  } else {
    r.outcome = r.not_implemented.empty() ? Outcome::Read : Outcome::NotImplemented;
    if (e.status == 2 && r.not_implemented.empty()) {
      r.outcome = Outcome::Crash;
      r.message = "--check exit 2 without an error line";
    }
  }
}

/// Runs a deck that read cleanly and compares its node positions with MBDyn's .mov.
void run_and_compare(const Deck& d, const Options& o, const fs::path& work, Result& r) {
  const fs::path main = o.corpus / d.id / "deck" / d.main;
  const fs::path prefix = work / "run";
  // Generous: a deck that MBDyn ran in s seconds gets 30 s + 10 s.
  const double timeout = std::min(o.run_timeout_s, 30.0 + 10.0 * d.mbdyn_wall_s);
  r.ran = true;
  const Exit e = run_child(work, {o.program.string(), "-f", fs::absolute(main).string(), "-o", prefix.string()},
                           work / "run.txt", timeout);
  r.wall_s = e.wall_s;
  if (e.timed_out) {
    r.outcome = Outcome::Timeout;
    r.message = fmt::format("still running after {:g} s (MBDyn: {:g} s)", timeout, d.mbdyn_wall_s);
    return;
  }
  if (e.status == 3) {
    r.outcome = Outcome::SolveFail;
    std::istringstream text(slurp(work / "run.txt"));
    for (std::string line; std::getline(text, line);)
      if (line.find("error") != std::string::npos) r.message = line;
    return;
  }
  if (e.status != 0) {
    r.outcome = Outcome::Crash;
    r.message = fmt::format("exit status {}", e.status);
    return;
  }
  if (!d.has_reference) {
    r.outcome = Outcome::NoReference;
    return;
  }
  const fs::path ref = work / "ref";
  const fs::path ref_dir = o.corpus / d.id / "mbdyn";
  if (!gunzip(ref_dir / "ref.mov.gz", ref.string() + ".mov") ||
      (fs::exists(ref_dir / "ref.out.gz") && !gunzip(ref_dir / "ref.out.gz", ref.string() + ".out"))) {
    r.outcome = Outcome::Crash;
    r.message = "cannot decompress MBDyn's reference";
    return;
  }
  try {
    const std::string ours =
        fs::exists(prefix.string() + ".mov") ? prefix.string() : prefix.string() + ".nc";
    const output::Results run = output::read_results(ours);
    const output::Results reference = output::read_results(ref.string(), d.stride);
    output::CompareOptions co;
    co.tol = o.tol;
    co.norm = output::Normalisation::Model;
    co.patterns = {"node.struct.*.X"};
    const output::CompareReport rep = output::compare_results(run, reference, co);
    double worst = 0.0;
    std::string worst_name;
    for (const auto& v : rep.vars)
      if (v.normalised >= worst) {
        worst = v.normalised;
        worst_name = v.name;
      }
    r.error = worst;
    r.run_records = rep.run_records;
    r.ref_records = rep.ref_records;
    r.outcome = rep.all_within() ? Outcome::Agree : Outcome::Disagree;
    r.message = fmt::format("{} = {:.2e} at t = {:g}", worst_name, worst,
                            rep.vars.empty() ? 0.0 : std::max_element(rep.vars.begin(), rep.vars.end(),
                                                   [](auto& a, auto& b) { return a.normalised < b.normalised; })
                                                   ->worst_time);
    if (!rep.records_match())
      r.message += fmt::format("; {} records, MBDyn {}", rep.run_records, rep.ref_records);
    if (!rep.covers_ref)
      r.message += fmt::format("; covers t = {:g} .. {:g} of {:g} .. {:g}", rep.t_begin, rep.t_end,
                               rep.ref_begin, rep.ref_end);
    // Agreement means every column: the velocities too, each against its own range (a model's
    // size says nothing of its speeds), small ranges compared in absolute terms.
    if (r.outcome == Outcome::Agree) {
      output::CompareOptions cv;
      cv.tol = o.tol;
      cv.norm = output::Normalisation::Range;
      cv.floor = 1e-3;
      cv.patterns = {"node.struct.*.XP", "node.struct.*.Omega"};
      const output::CompareReport vel = output::compare_results(run, reference, cv);
      r.velocity_error = 0.0;
      for (const auto& v : vel.vars)
        if (v.normalised >= r.velocity_error) {
          r.velocity_error = v.normalised;
          r.velocity_worst = fmt::format("{} at t = {:g}", v.name, v.worst_time);
        }
      r.velocities_agree = vel.all_within();
    }
  } catch (const std::exception& ex) {
    r.outcome = Outcome::Disagree;
    r.message = std::string("cannot compare: ") + ex.what();
  }
}

}  // namespace

std::vector<Result> process(const std::vector<Deck>& decks, const Options& o) {
  std::vector<Result> results(decks.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i; (i = next++) < decks.size();) {
      const Deck& d = decks[i];
      Result& r = results[i];
      r.id = d.id;
      const fs::path work = o.work / d.id;
      fs::remove_all(work);
      fs::create_directories(work);
      check(d, o, work, r);
      r.check = r.outcome;
      if (o.run && r.outcome == Outcome::Read && d.mbdyn_status == "complete")
        run_and_compare(d, o, work, r);
    }
  };
  std::vector<std::thread> pool;
  for (int k = 0; k < std::max(1, o.jobs); ++k) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  return results;
}

std::string summary(const std::vector<Deck>& decks, const std::vector<Result>& results, bool run) {
  std::size_t reads = 0, complete = 0;
  std::map<Outcome, std::size_t> check_counts;
  std::map<std::string, std::size_t> kinds;
  std::vector<std::string> errors;
  std::size_t runnable = 0, agree = 0, agree_velocities = 0;
  std::map<Outcome, std::size_t> run_counts;
  for (std::size_t i = 0; i < decks.size(); ++i) {
    const Deck& d = decks[i];
    const Result& r = results[i];
    if (!d.mbdyn_reads()) continue;
    ++reads;
    complete += d.mbdyn_status == "complete" ? 1 : 0;
    const Outcome checked = r.check;
    ++check_counts[checked];
    for (const auto& k : r.not_implemented) ++kinds[k];
    if (checked == Outcome::InputError || checked == Outcome::Crash || checked == Outcome::Timeout)
      errors.push_back(fmt::format("{}: {}: {}", d.id, outcome_name(checked), r.message));
    if (run && r.ran && d.has_reference) {
      ++runnable;
      ++run_counts[r.outcome];
      agree += r.outcome == Outcome::Agree ? 1 : 0;
      agree_velocities += r.velocities_agree ? 1 : 0;
    }
  }
  std::string s;
  s += fmt::format("| corpus ({} decks) | decks |\n|---|---:|\n", decks.size());
  s += fmt::format("| MBDyn reads them (complete {}, solve-fail {}) | {} |\n", complete,
                   reads - complete, reads);
  s += fmt::format("| we read them, every card implemented | {} |\n", check_counts[Outcome::Read]);
  s += fmt::format("| we read them, some cards not implemented | {} |\n",
                   check_counts[Outcome::NotImplemented]);
  s += fmt::format("| input error (must be 0) | {} |\n", check_counts[Outcome::InputError]);
  s += fmt::format("| crash or timeout while reading | {} |\n",
                   check_counts[Outcome::Crash] + check_counts[Outcome::Timeout]);
  if (run) {
    s += fmt::format("| run: MBDyn completed with a .mov, every card implemented | {} |\n", runnable);
    s += fmt::format("| agree with MBDyn (positions, 1e-4 of model size, same records) | {} ({:.0f} %) |\n",
                     agree, runnable ? 100.0 * double(agree) / double(runnable) : 0.0);
    s += fmt::format("| ... and in velocities too (XP, Omega; 1e-4 of each range, ranges below 1e-3 absolute) | {} ({:.0f} %) |\n",
                     agree_velocities, runnable ? 100.0 * double(agree_velocities) / double(runnable) : 0.0);
    s += fmt::format("| disagree | {} |\n", run_counts[Outcome::Disagree]);
    s += fmt::format("| solution failure | {} |\n", run_counts[Outcome::SolveFail]);
    s += fmt::format("| crash or timeout | {} |\n",
                     run_counts[Outcome::Crash] + run_counts[Outcome::Timeout]);
  }
  std::vector<std::pair<std::size_t, std::string>> by_count;
  for (const auto& [k, n] : kinds) by_count.emplace_back(n, k);
  std::sort(by_count.begin(), by_count.end(),
            [](auto& a, auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
  s += "\n| not implemented | decks |\n|---|---:|\n";
  for (const auto& [n, k] : by_count) s += fmt::format("| {} | {} |\n", k, n);
  if (!errors.empty()) {
    s += "\nInput errors and crashes on decks MBDyn reads:\n";
    for (const auto& e : errors) s += "  " + e + "\n";
  }
  return s;
}

}  // namespace mbl::corpus
