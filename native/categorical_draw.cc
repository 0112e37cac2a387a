// One categorical draw a row from float64 probabilities on the CPU: the draws of libtorch's
// at::multinomial(probs, 1, false, gen), with the generator left in the same state, at a fraction
// of its cost where rows are long (the samplers' categorical draws, docs/design.md §4: 256 grey
// levels a site, thousands of sites a step).
//
// libtorch draws one sample without replacement as an exponential race: q = Exp(1) for every
// entry of probs (the generator's 64-bit outputs in memory order, q = -log(1 - u)), then
// argmax(probs / q) along the row (the first of equal ratios; a NaN, which only a u of exactly 0
// on a zero entry can give, wins as argmax's NaN does). The log is most of its cost. Here every
// entry still takes its u (so the stream is the same), but the log is skipped where the entry
// cannot beat the row's best ratio so far: -log(1 - u) >= u, so p / q <= p / u, and an entry
// with p < best u (1 - 1e-9) has a ratio strictly below the best (the margin covers the log's
// and the product's rounding, both below 1e-15 relative). A row's expected logs are then about
// 1 / best plus the first few entries, against K: the draw costs the generator's outputs
// (3,136 rows of 256: 3.4 ms against 8.2 in Debian's PyTorch, one thread).
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/core/DistributionsHelper.h>

#include <cmath>
#include <limits>
#include <mutex>

#include "common.h"

namespace sjd {

bool CanDrawCategorical(const at::Tensor& probs) {
  // an empty one goes to libtorch, for its error
  return probs.device().is_cpu() && probs.scalar_type() == at::kDouble && (probs.dim() == 1 || probs.dim() == 2) &&
         probs.numel() > 0;
}

at::Tensor DrawCategorical(const at::Tensor& probs, at::Generator& gen) {
  const auto p = probs.contiguous();
  const int64_t K = p.size(-1);
  const int64_t N = p.dim() == 2 ? p.size(0) : 1;
  const double* data = p.data_ptr<double>();
  // libtorch's checks, before any draw, with its messages
  bool valid = true;
  for (int64_t i = 0; i < N * K; i++) valid = valid && data[i] < INFINITY && data[i] >= 0;  // NaN fails
  TORCH_CHECK(valid, "probability tensor contains either `inf`, `nan` or element < 0");
  for (int64_t r = 0; r < N; r++) {
    bool zero = true;
    for (int64_t k = 0; k < K && zero; k++) zero = data[r * K + k] == 0;
    TORCH_CHECK(!zero, "invalid multinomial distribution (sum of probabilities <= 0)");
  }
  auto out = at::empty(p.dim() == 2 ? std::vector<int64_t>{N, 1} : std::vector<int64_t>{1}, at::kLong);
  int64_t* idx = out.data_ptr<int64_t>();
  auto* cpu = at::check_generator<at::CPUGeneratorImpl>(gen);
  std::lock_guard<std::mutex> lock(gen.mutex());
  at::uniform_real_distribution<double> uniform(0.0, 1.0);
  constexpr double kMargin = 1 - 1e-9;
  for (int64_t r = 0; r < N; r++) {
    const double* row = data + r * K;
    double best = -std::numeric_limits<double>::infinity();
    bool bestNan = false;
    int64_t arg = 0;
    for (int64_t k = 0; k < K; k++) {
      const double u = uniform(cpu);
      if (bestNan || (best > 0 && row[k] < best * u * kMargin)) continue;
      const double ratio = row[k] / at::transformation::exponential<double>(u, 1.0);
      if (std::isnan(ratio)) {
        bestNan = true;
        arg = k;
      } else if (ratio > best) {
        best = ratio;
        arg = k;
      }
    }
    idx[r] = arg;
  }
  return out;
}

}  // namespace sjd
