// NetCDF output: a small model written through OutputManager and read back with the NetCDF-C API;
// the headers our writer produces for the entities of MBDyn's own .nc files equal MBDyn's; a run
// that stops without closing leaves a readable file.
#include <gtest/gtest.h>
#include <netcdf.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <set>

#include "mbdyn-like/core/nc_catalog.hpp"
#include "mbdyn-like/output/output_manager.hpp"
#include "mbdyn-like/output/results.hpp"
#include "support/run_program.hpp"

namespace fs = std::filesystem;
using namespace mbl;
using namespace mbl::output;

namespace {

const std::string kShared = MBL_SHARED_DIR;

std::string temp_prefix(const std::string& tag) {
  return (mbl::test::fresh_temp_dir("nc_" + tag) / "run").string();
}

/// Everything in a NetCDF header: dimensions (name=len; time as UNLIMITED) and, per variable,
/// "type(dims) att=value;...".
struct Header {
  std::map<std::string, std::string> dims;
  std::map<std::string, std::string> vars;
  std::vector<std::string> order;  // variable names in file order
};

std::string text_att(int nc, int var, const char* name) {
  std::size_t len = 0;
  if (nc_inq_attlen(nc, var, name, &len) != NC_NOERR) return {};
  std::string s(len, '\0');
  nc_get_att_text(nc, var, name, s.data());
  return s;
}

Header read_header(const std::string& path) {
  Header h;
  int nc = -1;
  EXPECT_EQ(nc_open(path.c_str(), NC_NOWRITE, &nc), NC_NOERR) << path;
  if (nc < 0) return h;
  int ndims = 0, nvars = 0, unlimited = -1;
  nc_inq(nc, &ndims, &nvars, nullptr, &unlimited);
  for (int d = 0; d < ndims; ++d) {
    char name[NC_MAX_NAME + 1];
    std::size_t len = 0;
    nc_inq_dim(nc, d, name, &len);
    h.dims[name] = d == unlimited ? "UNLIMITED" : std::to_string(len);
  }
  for (int v = 0; v < nvars; ++v) {
    char name[NC_MAX_NAME + 1];
    nc_type type{};
    int nd = 0, dims[NC_MAX_VAR_DIMS], natts = 0;
    nc_inq_var(nc, v, name, &type, &nd, dims, &natts);
    std::string s = type == NC_DOUBLE ? "double(" : type == NC_INT ? "int(" : "char(";
    for (int i = 0; i < nd; ++i) {
      char dn[NC_MAX_NAME + 1];
      nc_inq_dimname(nc, dims[i], dn);
      s += std::string(i ? "," : "") + dn;
    }
    s += ")";
    std::map<std::string, std::string> atts;
    for (int a = 0; a < natts; ++a) {
      char an[NC_MAX_NAME + 1];
      nc_inq_attname(nc, v, a, an);
      atts[an] = text_att(nc, v, an);
    }
    for (const auto& [k, val] : atts) s += " " + k + "=" + val + ";";
    h.vars[name] = s;
    h.order.push_back(name);
  }
  nc_close(nc);
  return h;
}

std::vector<int> int_var(const std::string& path, const std::string& name) {
  int nc = -1, var = -1;
  std::vector<int> out;
  if (nc_open(path.c_str(), NC_NOWRITE, &nc) != NC_NOERR) return out;
  if (nc_inq_varid(nc, name.c_str(), &var) == NC_NOERR) {
    int dim = -1;
    std::size_t len = 0;
    nc_inq_vardimid(nc, var, &dim);
    nc_inq_dimlen(nc, dim, &len);
    out.resize(len);
    nc_get_var_int(nc, var, out.data());
  }
  nc_close(nc);
  return out;
}

}  // namespace

TEST(OutputNetcdf, SmallModelWrittenAndReadBack) {
  const std::string prefix = temp_prefix("small");
  OutputConfig cfg;
  cfg.prefix = prefix;
  cfg.netcdf = true;
  cfg.text = false;
  Mat3 R;  // a non-symmetric orientation, to check the storage order
  R << 0, -1, 0, 1, 0, 0, 0, 0, 1;
  {
    OutputManager out(cfg);
    out.begin_setup();
    out.declare_group("node", "struct", {10, 20});
    out.declare_entity("node.struct.10", "static");
    const int x10 = nc_declare(out, "node.struct.10", nc::node_X);
    out.declare_entity("node.struct.20", "dynamic");
    const int r20 = nc_declare(out, "node.struct.20", nc::node_R);
    out.declare_group("elem", "autostruct", {20});
    out.declare_group("elem", "joint", {5});
    out.declare_entity("elem.joint.5", "Rod");
    const int l5 = nc_declare(out, "elem.joint.5", nc::joint_l);
    const int a5 = nc_declare(out, "elem.driven.5", nc::driven_activation);
    out.end_setup();
    for (long step = 0; step < 3; ++step) {
      ASSERT_TRUE(out.begin_step(step, 0.5 * double(step), 0.5));
      out.put(x10, Vec3(1.0 + double(step), 2.0, 3.0));
      out.put(r20, R);
      out.put(l5, 0.25 * double(step));
      out.put(a5, step == 1 ? 0.0 : 1.0);
      out.end_step({step, 0.5 * double(step), 0.5, 1, 0.0, 0.0, false, true});
    }
    out.close();
  }
  const std::string path = prefix + ".nc";
  const Header h = read_header(path);
  EXPECT_EQ(h.dims.at("time"), "UNLIMITED");
  EXPECT_EQ(h.dims.at("Vec1"), "1");
  EXPECT_EQ(h.dims.at("Vec3"), "3");
  EXPECT_EQ(h.dims.at("struct_node_labels_dim"), "2");
  EXPECT_EQ(h.dims.at("joint_elem_labels_dim"), "1");
  EXPECT_EQ(h.vars.at("node"),
            "int(node_types_dim) description=Node types (in attribute \"types\", "
            "semicolon-separated); types=struct;");
  EXPECT_EQ(h.vars.at("elem"),
            "int(elem_types_dim) description=Element types (in attribute \"types\", "
            "semicolon-separated); types=autostruct;joint;");
  EXPECT_EQ(h.vars.at("node.struct"), "int(struct_node_labels_dim) description=Structural nodes labels;");
  EXPECT_EQ(h.vars.at("elem.autostruct"),
            "int(autostruct_elem_labels_dim) description=AutomaticStructural elements labels;");
  EXPECT_EQ(h.vars.at("node.struct.20"), "char(Vec1) type=dynamic;");
  EXPECT_EQ(h.vars.at("node.struct.10.X"),
            "double(time,Vec3) description=global position vector (X, Y, Z); type=Vec3; "
            "units=Length;");
  EXPECT_EQ(h.vars.at("node.struct.20.R"),
            "double(time,Vec3,Vec3) description=global orientation matrix (R11, R21, R31, R12, "
            "R22, R32, R13, R23, R33); type=Mat3x3; units=-;");
  EXPECT_EQ(h.vars.at("elem.joint.5.l"),
            "double(time) description=length of the element; type=doublereal; units=Length;");
  EXPECT_EQ(h.vars.at("elem.driven.5.activation"),
            "int(time) description=activation flag (1: active, 0: inactive); type=integer; "
            "units=Boolean;");
  EXPECT_EQ(h.vars.at("run.step"),
            "int(time) description=time step index; type=integer; units=Dimensionless;");
  EXPECT_EQ(int_var(path, "node.struct"), (std::vector<int>{10, 20}));
  EXPECT_EQ(int_var(path, "node"), (std::vector<int>{1}));
  EXPECT_EQ(int_var(path, "elem"), (std::vector<int>{2}));
  EXPECT_EQ(int_var(path, "elem.driven.5.activation"), (std::vector<int>{1, 0, 1}));

  // values, and the matrix stored R11, R21, R31, R12, ... as MBDyn does
  int nc = -1, var = -1;
  ASSERT_EQ(nc_open(path.c_str(), NC_NOWRITE, &nc), NC_NOERR);
  double rec[9];
  const std::size_t start[3] = {2, 0, 0}, count[3] = {1, 3, 3};
  ASSERT_EQ(nc_inq_varid(nc, "node.struct.20.R", &var), NC_NOERR);
  ASSERT_EQ(nc_get_vara_double(nc, var, start, count, rec), NC_NOERR);
  EXPECT_EQ(rec[1], R(1, 0));  // second stored value is R21
  EXPECT_EQ(rec[3], R(0, 1));  // fourth is R12
  ASSERT_EQ(nc_inq_varid(nc, "node.struct.10.X", &var), NC_NOERR);
  ASSERT_EQ(nc_get_vara_double(nc, var, start, count, rec), NC_NOERR);
  EXPECT_EQ(rec[0], 3.0);
  double t[3];
  ASSERT_EQ(nc_inq_varid(nc, "time", &var), NC_NOERR);
  ASSERT_EQ(nc_get_var_double(nc, var, t), NC_NOERR);
  EXPECT_EQ(t[2], 1.0);
  nc_close(nc);

  // our reader gives the matrix back row by row
  const Results r = read_netcdf(path);
  ASSERT_EQ(r.records(), 3u);
  EXPECT_EQ(r.vars.at("node.struct.20.R").at(1, 1), R(0, 1));
  EXPECT_EQ(r.vars.at("node.struct.20.R").at(1, 3), R(1, 0));
  EXPECT_FALSE(fs::exists(prefix + ".mov"));  // `no text`
}

// ------------------------------------------------------------------------------------------------
// For a real MBDyn .nc: take its entities (label lists, which entities have output, their type
// attribute, and the configuration-dependent choices: orientation kind, optional variables), let
// each entity declare what MBDyn's entity of that type declares, through our writer and catalog,
// and compare the whole header.
// ------------------------------------------------------------------------------------------------

namespace {

bool has(const Header& h, const std::string& v) { return h.vars.count(v) > 0; }

void declare_like_mbdyn(OutputManager& out, const Header& real, const std::string& real_path) {
  auto type_of = [&](const std::string& v) {
    const auto& s = real.vars.at(v);
    const auto p = s.find(" type=");
    return p == std::string::npos ? std::string() : s.substr(p + 6, s.find(';', p) - p - 6);
  };
  // Optional variables whose presence depends on the deck's settings (accelerations, beam
  // output, driven elements) are declared when the real file has them.
  auto declare_if = [&](const std::string& entity, const NcVarSpec& spec) {
    if (has(real, entity + "." + std::string(spec.suffix))) nc_declare(out, entity, spec);
  };
  auto types_of = [&](const std::string& level) {
    // "... types=a;b;c;" (the last attribute, closed by ';') -> {a, b, c}
    std::vector<std::string> v;
    std::string types = real.vars.at(level).substr(real.vars.at(level).find("types=") + 6);
    types.pop_back();  // trailing ';' of the attribute
    std::size_t pos = 0;
    while (pos <= types.size()) {
      const auto semi = std::min(types.find(';', pos), types.size());
      v.push_back(types.substr(pos, semi - pos));
      pos = semi + 1;
    }
    return v;
  };

  // nodes
  for (const auto& type : types_of("node")) {
    const auto labels = int_var(real_path, "node." + type);
    out.declare_group("node", type, std::vector<unsigned>(labels.begin(), labels.end()));
    for (int l : labels) {
      const std::string e = "node." + type + "." + std::to_string(l);
      if (!has(real, e)) continue;  // output disabled
      out.declare_entity(e, type_of(e));
      nc_declare(out, e, nc::node_X);
      if (has(real, e + ".R")) nc_declare(out, e, nc::node_R);
      else if (has(real, e + ".Phi")) nc_declare(out, e, nc::node_Phi);
      else nc_declare(out, e, nc::node_E123);
      nc_declare(out, e, nc::node_XP);
      nc_declare(out, e, nc::node_Omega);
      declare_if(e, nc::node_XPP);
      declare_if(e, nc::node_OmegaP);
    }
  }
  // elements
  const auto elem_types = types_of("elem");
  std::map<std::string, std::vector<int>> labels_of;
  for (const auto& type : elem_types) {
    labels_of[type] = int_var(real_path, "elem." + type);
    out.declare_group("elem", type, std::vector<unsigned>(labels_of[type].begin(), labels_of[type].end()));
  }
  for (const auto& type : elem_types) {
    for (int l : labels_of[type]) {
      const std::string L = std::to_string(l);
      if (type == "autostruct") {
        // The automatic structural element of a dynamic node writes in the node's namespace.
        const std::string e = "node.struct." + L;
        if (!has(real, e + ".B")) continue;
        for (const auto* s : {&nc::node_B, &nc::node_G, &nc::node_BP, &nc::node_GP}) nc_declare(out, e, *s);
      } else if (type == "joint") {
        const std::string e = "elem.joint." + L;
        if (!has(real, e)) continue;
        const std::string jt = type_of(e);
        out.declare_entity(e, jt);
        for (const auto* s : {&nc::joint_f, &nc::joint_m, &nc::joint_F, &nc::joint_M})
          nc_declare(out, e, *s);
        if (jt == "Clamp") {
          // the reactions only
        } else if (jt == "Total joint" || jt == "Total pin joint") {
          for (const auto* s : {&nc::joint_X, &nc::joint_Phi, &nc::joint_V, &nc::joint_Omega})
            nc_declare(out, e, *s);
        } else if (jt == "Deformable joint") {
          for (const auto* s : {&nc::joint_d, &nc::joint_dPrime, &nc::joint_D, &nc::joint_DPrime,
                                &nc::joint_E_relative, &nc::joint_Omega})
            nc_declare(out, e, *s);
        } else if (jt == "Spherical hinge") {
          nc_declare(out, e, nc::joint_E_relative);
        } else if (jt == "revolute hinge") {
          nc_declare(out, e, nc::joint_E_global);
          nc_declare(out, e, nc::joint_Omega);
        } else if (jt == "Rod") {
          for (const auto* s : {&nc::joint_l, &nc::joint_lP, &nc::joint_v}) nc_declare(out, e, *s);
        } else {
          ADD_FAILURE() << "joint type without a rule in this test: " << jt;
        }
        declare_if("elem.driven." + L, nc::driven_activation);
      } else if (type == "force") {
        // forces and couples share the "force" label list
        for (const std::string kind : {"force", "couple"}) {
          const std::string e = "elem." + kind + "." + L;
          if (!has(real, e)) continue;
          const std::string ft = type_of(e);
          out.declare_entity(e, ft);
          if (kind == "couple") {
            nc_declare(out, e, nc::couple_M);
          } else if (ft.find("displacement") != std::string::npos) {
            nc_declare(out, e, nc::force_displacement_F);
          } else if (ft.rfind("internal", 0) == 0) {
            for (const auto* s : {&nc::force_F, &nc::force_Arm1, &nc::force_Arm2}) nc_declare(out, e, *s);
          } else {
            for (const auto* s : {&nc::force_F, &nc::force_Arm}) nc_declare(out, e, *s);
          }
        }
      } else if (type == "beam") {
        const std::string e = "elem.beam." + L;
        if (!has(real, e)) continue;
        out.declare_entity(e, type_of(e));
        for (const auto* s : {&nc::beam3_F_I, &nc::beam3_M_I, &nc::beam3_F_II, &nc::beam3_M_II})
          declare_if(e, *s);
      }
      // gravity: label list only
    }
  }
}

}  // namespace

TEST(OutputNetcdf, HeadersEqualMbdynForTheSameEntities) {
  const std::vector<std::string> files = {
      "decks/t.joints.total.total/mbdyn/total.nc",
      "decks/t.forces.force.force/mbdyn/force.nc",
      "decks/t.beam.b/mbdyn/b.nc",
      "decks/t.plates.membrane.prestress_4x2/mbdyn/prestress_4x2.nc",
      "paper/andrewssqueezer/mbdyn/ms_0.6/andrewssqueezer.nc",
      "paper/fourbar/mbdyn/ms_0.6/fourbar.nc",
      "paper/lateralbuckling/mbdyn/ms_0.6/lateralbuckling.nc",
      "paper/rotatingshaft/mbdyn/ms_0.6/rotatingshaft.nc",
  };
  for (const auto& f : files) {
    const std::string real_path = kShared + "/" + f;
    const Header real = read_header(real_path);
    ASSERT_FALSE(real.vars.empty()) << real_path;
    const std::string prefix = temp_prefix("hdr");
    {
      OutputConfig cfg;
      cfg.prefix = prefix;
      cfg.netcdf = true;
      OutputManager out(cfg);
      out.begin_setup();
      declare_like_mbdyn(out, real, real_path);
      out.end_setup();
      out.close();
    }
    const Header ours = read_header(prefix + ".nc");
    auto dims_real = real.dims;
    EXPECT_EQ(ours.dims, dims_real) << f;
    for (const auto& [name, desc] : real.vars) {
      auto it = ours.vars.find(name);
      if (it == ours.vars.end()) {
        ADD_FAILURE() << f << ": we do not write " << name;
        continue;
      }
      EXPECT_EQ(it->second, desc) << f << ": " << name;
    }
    for (const auto& [name, desc] : ours.vars)
      EXPECT_TRUE(real.vars.count(name)) << f << ": MBDyn does not write " << name;
    // the label lists hold the labels
    EXPECT_EQ(int_var(prefix + ".nc", "node.struct"), int_var(real_path, "node.struct")) << f;
    EXPECT_EQ(int_var(prefix + ".nc", "elem.joint"), int_var(real_path, "elem.joint")) << f;
    EXPECT_EQ(int_var(prefix + ".nc", "elem"), int_var(real_path, "elem")) << f;
  }
}

TEST(OutputNetcdf, RunStoppedWithoutClosingLeavesAReadableFile) {
  // A child process writes 120 records with `sync` and exits abruptly (no close, no
  // destructors); every record it wrote is in the file.
  const std::string prefix = temp_prefix("crash");
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    OutputConfig cfg;
    cfg.prefix = prefix;
    cfg.netcdf = true;
    cfg.netcdf_sync = true;
    auto* out = new OutputManager(cfg);  // never deleted: the process dies
    out->begin_setup();
    out->declare_group("node", "struct", {1});
    out->declare_entity("node.struct.1", "dynamic");
    const int x = nc_declare(*out, "node.struct.1", nc::node_X);
    out->end_setup();
    for (long step = 0; step < 120; ++step) {
      out->begin_step(step, 0.01 * double(step), 0.01);
      out->put(x, Vec3(double(step), 0.0, 0.0));
      out->end_step({step, 0.01 * double(step), 0.01});
    }
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  const Results r = read_netcdf(prefix + ".nc");
  ASSERT_EQ(r.records(), 120u);
  EXPECT_EQ(r.vars.at("node.struct.1.X").at(119, 0), 119.0);
  EXPECT_DOUBLE_EQ(r.time[119], 1.19);
}

// The whole header of our own run of each deck of ../shared that has MBDyn's .nc, variable by
// variable and attribute by attribute (type, units, description, dimensions): what MBDyn's
// NetCDF readers (mbncplot.py, Blendyn) see.
TEST(OutputNetcdf, OurRunsHeadersEqualMbdyns) {
  struct Case { std::string deck, nc; };
  const std::vector<Case> cases = {
      {"decks/t.joints.total.total/deck/total", "decks/t.joints.total.total/mbdyn/total.nc"},
      {"decks/t.forces.force.force/deck/force", "decks/t.forces.force.force/mbdyn/force.nc"},
      {"decks/t.beam.b/deck/b", "decks/t.beam.b/mbdyn/b.nc"},
      {"decks/t.plates.membrane.prestress_4x2/deck/prestress_4x2", "decks/t.plates.membrane.prestress_4x2/mbdyn/prestress_4x2.nc"},
      {"paper/fourbar/deck/fourbar_ms_0.6.mbd", "paper/fourbar/mbdyn/ms_0.6/fourbar.nc"},
  };
  for (const auto& c : cases) {
    const std::string prefix = temp_prefix("run_hdr");
    const std::filesystem::path dir = std::filesystem::path(prefix).parent_path();
    ASSERT_EQ(mbl::test::run_deck(kShared + "/" + c.deck, prefix, dir / "log"), 0)
        << c.deck << "\n" << mbl::test::read_file(dir / "log");
    const Header real = read_header(kShared + "/" + c.nc);
    const Header ours = read_header(prefix + ".nc");
    ASSERT_FALSE(ours.vars.empty()) << c.deck;
    EXPECT_EQ(ours.dims, real.dims) << c.deck;
    for (const auto& [name, desc] : real.vars) {
      auto it = ours.vars.find(name);
      if (it == ours.vars.end()) {
        ADD_FAILURE() << c.deck << ": we do not write " << name;
        continue;
      }
      EXPECT_EQ(it->second, desc) << c.deck << ": " << name;
    }
    for (const auto& [name, desc] : ours.vars)
      EXPECT_TRUE(real.vars.count(name)) << c.deck << ": MBDyn does not write " << name << " " << desc;
    std::filesystem::remove_all(dir);
  }
}
