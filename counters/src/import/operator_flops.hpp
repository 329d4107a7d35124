#pragma once
// The FLOPs of one PyTorch operator call, from the shapes a profile taken with
// record_shapes=True writes on it ("Input Dims", and "Concrete Inputs" for a convolution's
// stride, padding, dilation and groups). A table of formulas (operator_flops.cpp), each
// naming the PyTorch source it counts as, and one of FLOPs per output element for the
// operators PyTorch counts none for.

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace rooftop::counters::importing {

// Past this a count is refused: no operator call of a real trace comes near it.
inline constexpr double kMaxOperatorFlops = 1e21;

struct ShapeFlops {
  bool listed = false;          // the table has a formula for the operator
  std::optional<double> flops;  // counted (0 where a dimension is 0)
  std::string refused;          // why not, where listed and not counted
  bool composite = false;       // counted only where no operator nested in it is
  std::optional<double> outputs;  // the elements of its output, where its shape follows
                                  // from the inputs ("Input Dims", "Concrete Inputs")
};

// `op` is the event's name ("aten::addmm"), `args` its args object.
ShapeFlops shape_flops(std::string_view op, const nlohmann::json& args);

// The "Input type" of an operator's first input ("float", "c10::BFloat16"); empty where
// none is given.
std::string first_type(const nlohmann::json& args);

// The precision (core::kPrecisions) of an operator's first input; empty where it is no
// floating type.
std::string precision_of(const nlohmann::json& args);

// What the table counts, for notes: "aten::mm, aten::addmm, …".
std::string counted_operators();

}  // namespace rooftop::counters::importing
