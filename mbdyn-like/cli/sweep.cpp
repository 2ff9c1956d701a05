#include "mbdyn-like/cli/sweep.hpp"

#include <CLI/CLI.hpp>
#include <fcntl.h>
#include <fmt/format.h>
#include <netcdf.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <thread>

#ifdef MBL_HAVE_MPI
#include <mpi.h>
#endif

namespace mbl::cli {

namespace fs = std::filesystem;

namespace {

std::string trim(std::string s) {
  s.erase(0, s.find_first_not_of(" \t"));
  s.erase(s.find_last_not_of(" \t") + 1);
  return s;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  for (;;) {
    const std::size_t k = s.find(sep, pos);
    out.push_back(trim(s.substr(pos, k - pos)));
    if (k == std::string::npos) return out;
    pos = k + 1;
  }
}

double number(const std::string& text, const std::string& arg) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(v))
    throw std::invalid_argument(fmt::format("{}: expected a number, found \"{}\"", arg, text));
  return v;
}

/// A real value as -D text that stays real (1 -> "1.").
std::string real_text(double v) {
  std::string s = fmt::format("{:.17g}", v);
  if (s.find_first_of(".eEn") == std::string::npos) s += ".";
  return s;
}

/// "name[:type]" and the text after '='.
std::pair<std::string, std::string> name_and_rest(const std::string& text, const char* option,
                                                  std::string& type) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw std::invalid_argument(fmt::format("{} {}: expected name=...", option, text));
  std::string name = trim(text.substr(0, eq));
  if (const std::size_t colon = name.find(':'); colon != std::string::npos) {
    type = name.substr(colon + 1);
    name.resize(colon);
  }
  return {name, trim(text.substr(eq + 1))};
}

// ---- one case ------------------------------------------------------------------------------------

struct CaseResult {
  int status = -1;        ///< exit status; -N: killed by signal N
  double wall_s = 0.0;
  std::string message;    ///< the case's last error line, or how it crashed
  std::vector<std::pair<std::string, double>> metrics;
  std::string defines;    ///< the case's -D arguments, one line (identifies a completed case)
};

std::string serialise(const CaseResult& r) {
  std::string s = fmt::format("defines {}\nstatus {}\nwall_s {:.6f}\nmessage {}\n", r.defines,
                              r.status, r.wall_s, r.message);
  for (const auto& [n, v] : r.metrics) s += fmt::format("metric {} {:.17g}\n", n, v);
  return s;
}

CaseResult deserialise(const std::string& text) {
  CaseResult r;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const std::size_t sp = line.find(' ');
    const std::string key = line.substr(0, sp);
    const std::string rest = sp == std::string::npos ? "" : line.substr(sp + 1);
    if (key == "defines") r.defines = rest;
    else if (key == "status") r.status = std::atoi(rest.c_str());
    else if (key == "wall_s") r.wall_s = std::strtod(rest.c_str(), nullptr);
    else if (key == "message") r.message = rest;
    else if (key == "metric") {
      const std::size_t k = rest.find(' ');
      r.metrics.emplace_back(rest.substr(0, k), std::strtod(rest.c_str() + k + 1, nullptr));
    }
  }
  return r;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct SweepSetup {
  std::string program;                ///< what runs a case (default: this program)
  fs::path deck;                      ///< absolute
  fs::path dir;                       ///< DIR
  std::vector<std::string> metrics;   ///< --metric texts
  std::vector<std::vector<std::string>> cases;
};

fs::path case_dir(const SweepSetup& s, std::size_t k) { return s.dir / fmt::format("case-{}", k); }

std::string defines_line(const std::vector<std::string>& defines) {
  std::string line;
  for (const auto& d : defines) line += (line.empty() ? "" : " ") + d;
  return line;
}

/// Runs case k in a child process (stdin /dev/null, its messages in case-k/log) and writes
/// case-k/result (through a temporary file, so an interrupted sweep never leaves half a result).
CaseResult run_case(const SweepSetup& s, std::size_t k) {
  const fs::path dir = case_dir(s, k);
  fs::create_directories(dir);
  fs::remove(dir / "metrics");
  std::vector<std::string> args = {s.program, "-s"};
  for (const auto& d : s.cases[k]) args.insert(args.end(), {"-D", d});
  for (const auto& m : s.metrics) args.insert(args.end(), {"--metric", m});
  args.insert(args.end(), {"--metrics-file", (dir / "metrics").string(), "-f", s.deck.string(), "-o",
                           (dir / "run").string()});
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    const int in = open("/dev/null", O_RDONLY);
    const int out = open((dir / "log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in >= 0) dup2(in, 0);
    if (out >= 0) {
      dup2(out, 1);
      dup2(out, 2);
    }
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    _exit(127);
  }
  CaseResult r;
  r.defines = defines_line(s.cases[k]);
  int st = 0;
  if (pid < 0 || waitpid(pid, &st, 0) != pid) {
    r.status = 127;
    r.message = "cannot start the case";
  } else if (WIFSIGNALED(st)) {
    r.status = -WTERMSIG(st);
    r.message = fmt::format("crashed: {} (signal {})", strsignal(WTERMSIG(st)), WTERMSIG(st));
  } else {
    r.status = WEXITSTATUS(st);
  }
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (r.message.empty() && r.status != 0) {
    std::istringstream log(read_text(dir / "log"));
    for (std::string line; std::getline(log, line);)
      if (line.find("error") != std::string::npos) r.message = line;
    if (r.message.empty()) r.message = fmt::format("exit status {}", r.status);
  }
  std::istringstream metrics(read_text(dir / "metrics"));
  for (std::string name, value; metrics >> name >> value;)
    r.metrics.emplace_back(name, std::strtod(value.c_str(), nullptr));
  for (char& c : r.message)
    if (c == '\n' || c == '\t') c = ' ';
  std::ofstream(dir / "result.tmp") << serialise(r);
  fs::rename(dir / "result.tmp", dir / "result");
  return r;
}

/// The stored result of case k if it is complete and was run with the same -D set.
bool completed(const SweepSetup& s, std::size_t k, CaseResult& r) {
  const fs::path f = case_dir(s, k) / "result";
  if (!fs::exists(f)) return false;
  r = deserialise(read_text(f));
  return r.defines == defines_line(s.cases[k]);
}

void run_local(const SweepSetup& s, int jobs, std::vector<CaseResult>& results) {
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t k; (k = next++) < s.cases.size();)
      if (!completed(s, k, results[k])) results[k] = run_case(s, k);
  };
  std::vector<std::thread> pool;
  for (int i = 0; i < std::max(1, jobs); ++i) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
}

#ifdef MBL_HAVE_MPI
/// Rank 0 hands out case indices as ranks become free and gathers their results; ranks > 0 run
/// the cases. Resumed cases are not sent out.
void run_mpi(const SweepSetup& s, int rank, int size, std::vector<CaseResult>& results) {
  constexpr int kAsk = 1, kCase = 2;
  if (rank == 0) {
    std::vector<std::size_t> todo;
    for (std::size_t k = 0; k < s.cases.size(); ++k)
      if (!completed(s, k, results[k])) todo.push_back(k);
    std::size_t handed = 0;
    int stopped = 0;
    while (stopped < size - 1) {
      MPI_Status st;
      MPI_Probe(MPI_ANY_SOURCE, kAsk, MPI_COMM_WORLD, &st);
      int len = 0;
      MPI_Get_count(&st, MPI_CHAR, &len);
      std::string msg(std::size_t(len), '\0');
      MPI_Recv(msg.data(), len, MPI_CHAR, st.MPI_SOURCE, kAsk, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      // A message is "<case index>\n<result>" for a finished case, or "-1\n" for a first request.
      const long done = std::strtol(msg.c_str(), nullptr, 10);
      if (done >= 0) results[std::size_t(done)] = deserialise(msg.substr(msg.find('\n') + 1));
      long next = handed < todo.size() ? long(todo[handed++]) : -1;
      MPI_Send(&next, 1, MPI_LONG, st.MPI_SOURCE, kCase, MPI_COMM_WORLD);
      if (next < 0) ++stopped;
    }
  } else {
    std::string msg = "-1\n";
    for (;;) {
      MPI_Send(msg.data(), int(msg.size()), MPI_CHAR, 0, kAsk, MPI_COMM_WORLD);
      long k = -1;
      MPI_Recv(&k, 1, MPI_LONG, 0, kCase, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (k < 0) break;
      msg = fmt::format("{}\n", k) + serialise(run_case(s, std::size_t(k)));
    }
  }
}
#endif

// ---- summary -------------------------------------------------------------------------------------

/// The value of parameter `name` in a case's -D list ("K=1e3" or "n:integer=3").
std::string parameter_value(const std::vector<std::string>& defines, const std::string& name) {
  for (const auto& d : defines) {
    const std::size_t eq = d.find('=');
    std::string n = d.substr(0, eq);
    n = n.substr(0, n.find(':'));
    if (n == name) return d.substr(eq + 1);
  }
  return {};
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

void nc_check(int status, const fs::path& file) {
  if (status != NC_NOERR)
    throw std::runtime_error(fmt::format("{}: {}", file.string(), nc_strerror(status)));
}

void write_summary(const SweepSetup& s, const std::vector<std::string>& params,
                   const std::vector<std::string>& metric_names, const std::vector<CaseResult>& results) {
  std::ofstream csv(s.dir / "summary.csv");
  csv << "case";
  for (const auto& p : params) csv << ',' << csv_field(p);
  for (const auto& m : metric_names) csv << ',' << csv_field(m);
  csv << ",status,wall_s,message\n";
  for (std::size_t k = 0; k < results.size(); ++k) {
    csv << k;
    for (const auto& p : params) csv << ',' << csv_field(parameter_value(s.cases[k], p));
    for (const auto& m : metric_names) {
      double v = std::nan("");
      for (const auto& [n, x] : results[k].metrics)
        if (n == m) v = x;
      csv << ',' << fmt::format("{:.17g}", v);
    }
    csv << ',' << results[k].status << ',' << fmt::format("{:.3f}", results[k].wall_s) << ','
        << csv_field(results[k].message) << '\n';
  }

  // NetCDF: one record per case; parameters as numbers when every value is one, else strings.
  const fs::path nc_path = s.dir / "summary.nc";
  int nc = -1, dim = -1;
  nc_check(nc_create(nc_path.c_str(), NC_CLOBBER | NC_NETCDF4, &nc), nc_path);
  nc_check(nc_def_dim(nc, "case", results.size(), &dim), nc_path);
  struct Column {
    int var;
    bool numeric;
    std::vector<std::string> text;
    std::vector<double> value;
  };
  std::vector<Column> columns;
  auto add = [&](const std::string& name, std::vector<std::string> text, const char* description) {
    Column c;
    c.numeric = true;
    for (const auto& t : text) {
      char* end = nullptr;
      const double v = std::strtod(t.c_str(), &end);
      c.numeric = c.numeric && !t.empty() && *end == '\0';
      c.value.push_back(v);
    }
    nc_check(nc_def_var(nc, name.c_str(), c.numeric ? NC_DOUBLE : NC_STRING, 1, &dim, &c.var), nc_path);
    nc_put_att_text(nc, c.var, "description", std::strlen(description), description);
    c.text = std::move(text);
    columns.push_back(std::move(c));
  };
  for (const auto& p : params) {
    std::vector<std::string> v;
    for (std::size_t k = 0; k < results.size(); ++k) v.push_back(parameter_value(s.cases[k], p));
    add("param." + p, v, "sweep parameter (the -D value of the case)");
  }
  for (const auto& m : metric_names) {
    std::vector<std::string> v;
    for (const auto& r : results) {
      std::string x = "nan";
      for (const auto& [n, val] : r.metrics)
        if (n == m) x = fmt::format("{:.17g}", val);
      v.push_back(x);
    }
    add("metric." + m, v, "run metric (--metric)");
  }
  std::vector<std::string> status, wall, message;
  for (const auto& r : results) {
    status.push_back(std::to_string(r.status));
    wall.push_back(fmt::format("{:.6f}", r.wall_s));
    message.push_back(r.message.empty() ? " " : r.message);
  }
  add("status", status, "exit status of the case (0 ok, 2 input error, 3 solution failure, <0 signal)");
  add("wall_time", wall, "wall time of the case, s");
  add("message", message, "why the case failed");
  columns.back().numeric = false;
  nc_check(nc_enddef(nc), nc_path);
  for (const auto& c : columns) {
    if (c.numeric) {
      nc_check(nc_put_var_double(nc, c.var, c.value.data()), nc_path);
    } else {
      std::vector<const char*> p;
      for (const auto& t : c.text) p.push_back(t.c_str());
      nc_check(nc_put_var_string(nc, c.var, p.data()), nc_path);
    }
  }
  nc_check(nc_close(nc), nc_path);
}

fs::path self_program() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path("mbdyn-like") : p;
}

}  // namespace

SweepParameter parse_grid(const std::string& text) {
  SweepParameter p;
  auto [name, rest] = name_and_rest(text, "--grid", p.type);
  p.name = name;
  if (rest.empty()) throw std::invalid_argument(fmt::format("--grid {}: expected values", text));
  const auto range = split(rest, ':');
  if (range.size() == 3 && rest.find(',') == std::string::npos) {
    const double a = number(range[0], "--grid " + text), b = number(range[1], "--grid " + text);
    const double n = number(range[2], "--grid " + text);
    if (n < 1 || n != std::floor(n))
      throw std::invalid_argument(fmt::format("--grid {}: expected a whole number of values, found \"{}\"",
                                              text, range[2]));
    for (long i = 0; i < long(n); ++i)
      p.values.push_back(real_text(n == 1 ? a : a + (b - a) * double(i) / (n - 1)));
  } else {
    p.values = split(rest, ',');
    for (const auto& v : p.values)
      if (v.empty()) throw std::invalid_argument(fmt::format("--grid {}: an empty value", text));
  }
  return p;
}

SweepParameter parse_random(const std::string& text) {
  SweepParameter p;
  auto [name, rest] = name_and_rest(text, "--random", p.type);
  p.name = name;
  const std::size_t open = rest.find('(');
  if (open == std::string::npos || rest.back() != ')')
    throw std::invalid_argument(fmt::format("--random {}: expected name=normal(mean,sd) or uniform(lo,hi)", text));
  p.distribution = trim(rest.substr(0, open));
  const auto args = split(rest.substr(open + 1, rest.size() - open - 2), ',');
  if ((p.distribution != "normal" && p.distribution != "uniform") || args.size() != 2)
    throw std::invalid_argument(fmt::format("--random {}: expected normal(mean,sd) or uniform(lo,hi)", text));
  p.a = number(args[0], "--random " + text);
  p.b = number(args[1], "--random " + text);
  return p;
}

std::vector<std::vector<std::string>> sweep_cases(const std::vector<SweepParameter>& grids,
                                                  const std::vector<SweepParameter>& randoms,
                                                  long draws, unsigned long long seed) {
  auto d_arg = [](const SweepParameter& p, const std::string& v) {
    return p.name + (p.type.empty() ? "" : ":" + p.type) + "=" + v;
  };
  std::vector<std::vector<std::string>> cases{{}};
  for (const auto& g : grids) {
    std::vector<std::vector<std::string>> next;
    for (const auto& c : cases)
      for (const auto& v : g.values) {
        next.push_back(c);
        next.back().push_back(d_arg(g, v));
      }
    cases = std::move(next);
  }
  if (randoms.empty()) return cases;
  // splitmix64 and Box-Muller written out: the same draws on every machine and library.
  std::uint64_t state = seed;
  auto uniform01 = [&state] {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double(z >> 11) + 0.5) * 0x1.0p-53;
  };
  std::vector<std::vector<std::string>> out;
  for (const auto& c : cases)
    for (long i = 0; i < draws; ++i) {
      out.push_back(c);
      for (const auto& r : randoms) {
        double v;
        if (r.distribution == "normal") {
          const double u1 = uniform01(), u2 = uniform01();
          v = r.a + r.b * std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
        } else {
          v = r.a + (r.b - r.a) * uniform01();
        }
        out.back().push_back(d_arg(r, real_text(v)));
      }
    }
  return out;
}

int sweep_command(int argc, char** argv) {
  CLI::App app{"Run many variants of one deck (each case a run with its own -D set) and collect "
               "their metrics in DIR/summary.csv and DIR/summary.nc",
               "mbdyn-like sweep"};
  std::string deck, dir = "sweep", program;
  std::vector<std::string> grids, randoms, metrics;
  long draws = 0;
  unsigned long long seed = 1;
  int jobs = int(std::max(1u, std::thread::hardware_concurrency()));
  app.add_option("deck", deck, "the deck")->required();
  app.add_option("--grid", grids, "name[:type]=v1,v2,... or name=a:b:n (n values from a to b)");
  app.add_option("--random", randoms, "name=normal(mean,sd) or name=uniform(lo,hi), -n draws");
  app.add_option("-n,--draws", draws, "random draws (per grid point)");
  app.add_option("--seed", seed, "seed of the random draws (default 1)");
  app.add_option("--metric", metrics, "name=max|min|final|rms(<expression>), evaluated after every "
                                      "converged step (model:: functions and deck variables)");
  app.add_option("-o,--output", dir, "output folder (default ./sweep)");
  app.add_option("-j,--jobs", jobs, "cases at a time on this machine (default: the core count)");
  app.add_option("--program", program, "the program that runs a case (default: this one)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  SweepSetup s;
  std::vector<SweepParameter> grid_params, random_params;
  std::vector<std::string> param_names, metric_names;
  try {
    for (const auto& g : grids) grid_params.push_back(parse_grid(g));
    for (const auto& r : randoms) random_params.push_back(parse_random(r));
    if (!random_params.empty() && draws < 1)
      throw std::invalid_argument("--random needs -n <draws> of at least 1");
    if (grid_params.empty() && random_params.empty())
      throw std::invalid_argument("expected at least one --grid or --random parameter");
    for (const auto& p : grid_params) param_names.push_back(p.name);
    for (const auto& p : random_params) param_names.push_back(p.name);
    for (std::size_t i = 0; i < param_names.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (param_names[i] == param_names[j])
          throw std::invalid_argument(fmt::format("parameter {} is swept twice", param_names[i]));
    for (const auto& m : metrics) {
      const std::size_t eq = m.find('=');
      if (eq == std::string::npos) throw std::invalid_argument(fmt::format("--metric {}: expected name=...", m));
      metric_names.push_back(m.substr(0, eq));
    }
  } catch (const std::invalid_argument& e) {
    std::cerr << "mbdyn-like sweep: error: " << e.what() << '\n';
    return 2;
  }
  if (!fs::is_regular_file(deck)) {
    std::cerr << fmt::format("mbdyn-like sweep: error: {}: no such deck\n", deck);
    return 2;
  }
  s.deck = fs::absolute(deck);
  s.dir = fs::absolute(dir);
  s.program = program.empty() ? self_program().string() : program;
  s.metrics = metrics;
  s.cases = sweep_cases(grid_params, random_params, draws, seed);
  std::vector<CaseResult> results(s.cases.size());

  int rank = 0;
  [[maybe_unused]] int size = 1;
#ifdef MBL_HAVE_MPI
  // Only under a launcher (mpirun, srun): a plain `mbdyn-like sweep` never starts MPI.
  const bool launched = std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMI_SIZE") ||
                        std::getenv("PMIX_RANK");
  if (launched) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
  }
#endif
  if (rank == 0) fs::create_directories(s.dir);
#ifdef MBL_HAVE_MPI
  if (size > 1) {
    MPI_Barrier(MPI_COMM_WORLD);
    run_mpi(s, rank, size, results);
  } else
#endif
  if (rank == 0) {
    run_local(s, jobs, results);
  }
  int failed = 0;
  if (rank == 0) {
    write_summary(s, param_names, metric_names, results);
    for (const auto& r : results) failed += r.status != 0 ? 1 : 0;
    std::cout << fmt::format("mbdyn-like sweep: {} cases, {} failed; {}\n", results.size(), failed,
                             (s.dir / "summary.csv").string());
  }
#ifdef MBL_HAVE_MPI
  if (launched) MPI_Finalize();
#endif
  return 0;
}

}  // namespace mbl::cli
