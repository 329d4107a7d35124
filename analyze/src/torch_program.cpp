#include "torch_program.hpp"

#include <fstream>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "child_process.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/terminal.hpp"

namespace rooftop::analyze {
namespace {

constexpr const char* kLauncherName = "rooftop_torch.py";

// "python3", "python3.11", "/usr/bin/python", "pypy3": a name that runs Python.
bool names_python(const std::string& program) {
  const std::string base = program.substr(program.rfind('/') + 1);
  static const std::regex python("(python|pypy)[0-9.]*(-dbg)?");
  return std::regex_match(base, python);
}

// The words of a script's "#!" line where it names a Python interpreter; empty otherwise.
std::vector<std::string> python_shebang(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  std::string line;
  if (!in || !std::getline(in, line) || line.rfind("#!", 0) != 0 || line.size() > 512) return {};
  std::istringstream words(line.substr(2));
  std::vector<std::string> out;
  for (std::string w; words >> w;) out.push_back(w);
  for (const std::string& w : out)
    if (names_python(w)) return out;
  return {};
}

const char* kUsage =
    "profile --torch runs `python3 SCRIPT [ARGS]`, `python3 -m MODULE [ARGS]`, `python3 -c "
    "CODE` or a script whose #! line names python";

}  // namespace

PythonCommand python_command(const std::vector<std::string>& command) {
  if (command.empty()) throw Error(std::string("profile needs a program to run after --"));
  PythonCommand p;
  if (names_python(command.front())) {
    p.interpreter.push_back(command.front());
    std::size_t i = 1;
    // The interpreter's own options, up to what it runs (-W and -X take a value).
    for (; i < command.size() && command[i].size() > 1 && command[i][0] == '-' &&
           command[i] != "-m" && command[i] != "-c";
         ++i) {
      p.interpreter.push_back(command[i]);
      if ((command[i] == "-W" || command[i] == "-X") && i + 1 < command.size())
        p.interpreter.push_back(command[++i]);
    }
    if (i == command.size() || ((command[i] == "-m" || command[i] == "-c") &&
                                i + 1 == command.size()))
      throw Error(command.front() + " is given nothing to run: " + kUsage);
    p.target.assign(command.begin() + static_cast<long>(i), command.end());
    return p;
  }
  const std::string script = resolve_program(command.front());
  p.interpreter = script.empty() ? std::vector<std::string>{} : python_shebang(script);
  if (p.interpreter.empty())
    throw Error(core::terminal_text(command.front()) + ": not a Python program: " + kUsage);
  p.target = command;
  p.target.front() = script;
  return p;
}

std::string find_launcher(const std::string& given) {
  const std::string found = find_beside_program(given, "analyze/torch", kLauncherName, "launcher");
  if (found.empty())
    throw Error(std::string("cannot find ") + kLauncherName + " beside the rooftop program");
  return found;
}

std::vector<std::string> launcher_command(const PythonCommand& python,
                                          const std::string& launcher, LauncherMode mode,
                                          const std::string& trace, const std::string& status) {
  std::vector<std::string> out = python.interpreter;
  out.push_back(launcher);
  if (mode == LauncherMode::cuda) out.push_back("--cuda");
  if (mode == LauncherMode::plain) out.push_back("--plain");
  if (mode != LauncherMode::plain) out.insert(out.end(), {"--trace", trace});
  out.insert(out.end(), {"--status", status, "--"});
  out.insert(out.end(), python.target.begin(), python.target.end());
  return out;
}

LauncherStatus read_launcher_status(const std::string& path) {
  LauncherStatus s;
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line) || line.size() > 4096) return s;
  const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
  if (!j.is_object()) return s;
  if (j.contains("error") && j["error"].is_string()) s.error = j["error"].get<std::string>();
  if (j.contains("torch") && j["torch"].is_string()) s.torch = j["torch"].get<std::string>();
  if (j.contains("kineto") && j["kineto"].is_boolean()) s.kineto = j["kineto"].get<bool>();
  if (j.contains("exit") && j["exit"].is_number_integer()) s.exit = j["exit"].get<int>();
  return s;
}

}  // namespace rooftop::analyze
