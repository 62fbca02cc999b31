// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/planning/layout_search.h"

#include "engine/text/formula_text.h"
#include "engine/numerics/quantity_format.h"
#include "engine/planning/plan_explanation.h"
#include "engine/planning/step_time_bound.h"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <utility>

namespace napkin {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// A timed candidate: where it stands in the ranking (seconds, then the space's order).
struct Timed {
    LayoutChoice choice;
    double seconds = 0;
    std::size_t order = 0;
    bool operator<(const Timed& other) const {
        return seconds != other.seconds ? seconds < other.seconds : order < other.order;
    }
};

// A shape with its bound: its variants are visited together.
struct Group {
    std::size_t shape = 0;
    std::size_t firstOrder = 0; ///< the space's order of its first variant
    std::int64_t variants = 0;
    double bound = 0;
};

class LayoutSearch {
public:
    LayoutSearch(const AccountingInput& base, const GpuCatalog& catalog, const HardwareProfile& profile,
                 const PlanOptions& options)
        : m_base(base), m_catalog(catalog), m_gpu(*catalog.find(base.gpu)), m_profile(profile),
          m_options(options), m_space(base, m_gpu, options.constraints) {}

    LayoutPlan run();

private:
    enum class Verdict { invalid, tooBig, notTimed, timed };
    struct Judged {
        Verdict verdict = Verdict::invalid;
        std::string why, field;
        double seconds = 0, excessBytes = 0;
        SameShapeBounds sameShape; ///< timed: what its step bounds its shape's other variants by
    };
    Judged judge(const AccountingInput& in) const;
    void judgeYours();
    std::vector<Group> groups();
    void visitShape(const Group& group);
    // Judges one candidate; returns the bounds its step sets on its shape's other variants (0: none).
    SameShapeBounds visit(const LayoutChoice& choice, std::size_t order, double bound);
    double threshold() const;
    void refuse(const std::string& reason, const std::string& example, std::int64_t count);
    PlannedLayout planned(const LayoutChoice& choice, std::int64_t rank) const;
    void finish();

    const AccountingInput& m_base;
    const GpuCatalog& m_catalog;
    const GpuSpec& m_gpu;
    const HardwareProfile& m_profile;
    const PlanOptions& m_options;
    LayoutSpace m_space;
    LayoutPlan m_plan;
    std::vector<Timed> m_top;
    std::map<std::string, PlanRefusal> m_refusals;
    std::optional<Timed> m_nearest; // seconds holds the excess bytes
    double m_yourSeconds = -kInfinity;
    LayoutChoice m_yourChoice;
    std::size_t m_yourOrder = std::numeric_limits<std::size_t>::max(); // in the space's order, if it is there
    std::int64_t m_fasterThanYours = 0;
    std::int64_t m_mightBeFaster = 0; // pruned, with a bound no slower than yours: their rank against yours is open
};

LayoutSearch::Judged LayoutSearch::judge(const AccountingInput& in) const {
    Judged j;
    if (const InputError e = validate(in, m_catalog); !e.ok()) {
        j.field = e.field;
        j.why = e.message;
        return j;
    }
    const double required = requiredBytes(in, m_gpu), usable = usableBytes(in, m_gpu);
    if (required > usable) {
        j.verdict = Verdict::tooBig;
        j.excessBytes = required - usable;
        return j;
    }
    const ValuesOnly valuesOnly; // numbers alone, bit for bit those the formulas' path gives
    const AccountingResult r = accountStep(in, m_gpu);
    const StepTime t = predictStepTime(in, r, m_profile, m_options.stepTime);
    if (!t.predicted) {
        j.verdict = Verdict::notTimed;
        j.why = t.whyNot;
        return j;
    }
    j.verdict = Verdict::timed;
    j.seconds = t.seconds;
    j.sameShape = sameShapeLowerBounds(t, in.parallel);
    return j;
}

void LayoutSearch::refuse(const std::string& reason, const std::string& example, std::int64_t count) {
    PlanRefusal& r = m_refusals[reason];
    if (r.candidates == 0) {
        r.reason = reason;
        r.example = example;
    }
    r.candidates += count;
}

double LayoutSearch::threshold() const {
    const double kth = m_top.size() < m_options.top ? kInfinity : m_top.back().seconds;
    return kth;
}

void LayoutSearch::judgeYours() {
    YourLayout& y = m_plan.yours;
    m_yourChoice = layoutChoiceOf(m_base);
    if (const InputError e = validate(m_base, m_catalog); !e.ok()) { // the refusal says more than its batch
        y.status = YourLayoutStatus::invalid;
        y.why = "--" + e.field + ": " + e.message;
        return;
    }
    const double dp = dataParallelSize(m_base.parallel, m_base.gpus);
    if (m_base.batch * m_base.parallel.microbatches * dp != m_space.globalBatch()) {
        y.status = YourLayoutStatus::otherBatch;
        y.why = "its global batch is not the " + std::to_string(static_cast<long long>(m_space.globalBatch())) +
                " sequences searched";
        return;
    }
    const Judged j = judge(m_base);
    switch (j.verdict) {
    case Verdict::invalid:
        y.status = YourLayoutStatus::invalid;
        y.why = "--" + j.field + ": " + j.why;
        return;
    case Verdict::tooBig:
        y.status = YourLayoutStatus::doesNotFit;
        return; // `finish` says by how much, with the formulas
    case Verdict::notTimed:
        y.status = YourLayoutStatus::notTimed;
        y.why = j.why;
        return;
    case Verdict::timed:
        y.status = YourLayoutStatus::ranked;
        m_yourSeconds = j.seconds;
        return;
    }
}

std::vector<Group> LayoutSearch::groups() {
    std::vector<Group> out;
    std::size_t order = 0;
    const std::vector<LayoutChoice>& shapes = m_space.shapes();
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        const std::vector<LayoutChoice> all = m_space.variants(shapes[i]);
        const auto variants = static_cast<std::int64_t>(all.size());
        if (const auto it = std::find(all.begin(), all.end(), m_yourChoice); it != all.end()) {
            m_yourOrder = order + static_cast<std::size_t>(it - all.begin());
            m_plan.yours.inSpace = true;
        }
        m_plan.counts.considered += variants;
        const AccountingInput in = withLayoutChoice(m_base, shapes[i]);
        // The layout's own rules hold or fail for every variant alike (sp comes only with tp > 1).
        if (const InputError e = validateLayout(in.parallel, in.model, in.gpus); !e.ok()) {
            m_plan.counts.invalid += variants;
            refuse(e.field, e.message, variants);
        } else {
            out.push_back({i, order, variants, stepTimeLowerBound(in, m_profile)});
        }
        order += static_cast<std::size_t>(variants);
    }
    std::stable_sort(out.begin(), out.end(), [](const Group& a, const Group& b) { return a.bound < b.bound; });
    return out;
}

SameShapeBounds LayoutSearch::visit(const LayoutChoice& choice, std::size_t order, double bound) {
    const AccountingInput in = withLayoutChoice(m_base, choice);
    const Judged j = judge(in);
    PlanCounts& c = m_plan.counts;
    switch (j.verdict) {
    case Verdict::invalid:
        ++c.invalid;
        refuse(j.field, j.why, 1);
        return {};
    case Verdict::tooBig:
        ++c.refusedForMemory;
        refuse("memory", "step peak + overheads above usable memory", 1);
        if (!m_nearest || j.excessBytes < m_nearest->seconds)
            m_nearest = Timed{choice, j.excessBytes, order};
        return {};
    case Verdict::notTimed:
        ++c.notTimed;
        refuse("not timed", j.why, 1);
        return {};
    case Verdict::timed:
        break;
    }
    ++c.timed;
    if (bound > j.seconds * (1 + 1e-12))
        ++c.boundAboveTime;
    if (j.seconds < m_yourSeconds || (j.seconds == m_yourSeconds && order < m_yourOrder))
        ++m_fasterThanYours;
    const Timed t{choice, j.seconds, order};
    m_top.insert(std::upper_bound(m_top.begin(), m_top.end(), t), t);
    if (m_top.size() > m_options.top)
        m_top.pop_back();
    return j.sameShape;
}

void LayoutSearch::visitShape(const Group& group) {
    const std::vector<LayoutChoice> variants = m_space.variants(m_space.shapes()[group.shape]);
    // Variants with sp on first: a timed one bounds every variant by its memory-bound ops too
    // (sameShapeLowerBounds), one with sp off only the others with sp off.
    std::vector<std::size_t> visits(variants.size());
    std::iota(visits.begin(), visits.end(), std::size_t{0});
    std::stable_partition(visits.begin(), visits.end(), [&](std::size_t i) { return variants[i].parallel.sp; });
    double every = group.bound, spOff = group.bound;
    for (const std::size_t i : visits) {
        const double bound = variants[i].parallel.sp ? every : std::max(every, spOff);
        if (m_options.prune && bound > threshold()) {
            ++m_plan.counts.pruned;
            if (bound <= m_yourSeconds)
                ++m_mightBeFaster;
            continue;
        }
        const SameShapeBounds set = visit(variants[i], group.firstOrder + i, bound);
        every = std::max(every, variants[i].parallel.sp ? set.splitNoMore : set.everyVariant);
        if (!variants[i].parallel.sp)
            spOff = std::max(spOff, set.splitNoMore);
    }
}

PlannedLayout LayoutSearch::planned(const LayoutChoice& choice, std::int64_t rank) const {
    PlannedLayout p;
    p.rank = rank;
    p.rankAtMost = rank;
    p.choice = choice;
    p.input = withLayoutChoice(m_base, choice);
    const AccountingResult r = accountStep(p.input, m_gpu);
    p.peakBytes = r.peakMemory.value;
    p.requiredBytes = r.predictedBytes.value;
    p.usableBytes = r.usableBytes.value;
    if (r.predictedBytes.value <= r.usableBytes.value)
        p.stepTime = predictStepTime(p.input, r, m_profile, m_options.stepTime);
    p.stages = unevenStagesExplanation(p);
    return p;
}

void LayoutSearch::finish() {
    const double gpus = m_base.gpus;
    for (std::size_t i = 0; i < m_top.size(); ++i) {
        PlannedLayout p = planned(m_top[i].choice, static_cast<std::int64_t>(i + 1));
        if (i > 0) {
            const PlannedLayout& first = m_plan.top.front();
            p.slowerThanFirst = p.stepTime.seconds / first.stepTime.seconds - 1;
            p.changesFromFirst = layoutChoiceChanges(first.choice, p.choice, gpus);
            p.losesBy = ledgerDifferences(first.stepTime, p.stepTime, 3);
        }
        m_plan.top.push_back(std::move(p));
    }
    YourLayout& y = m_plan.yours;
    if (y.status == YourLayoutStatus::ranked || y.status == YourLayoutStatus::doesNotFit) {
        y.layout = planned(m_yourChoice, 1 + m_fasterThanYours);
        y.layout->rankAtMost = y.layout->rank + m_mightBeFaster;
        if (y.status == YourLayoutStatus::doesNotFit)
            y.why = "needs " + formatBytes(y.layout->requiredBytes) + " of " +
                    formatBytes(y.layout->usableBytes) + " usable (peak + overheads)";
        else if (!m_plan.top.empty()) {
            const PlannedLayout& first = m_plan.top.front();
            y.layout->slowerThanFirst = y.layout->stepTime.seconds / first.stepTime.seconds - 1;
            y.layout->changesFromFirst = layoutChoiceChanges(y.layout->choice, first.choice, gpus);
            y.layout->losesBy = ledgerDifferences(first.stepTime, y.layout->stepTime, 3);
        }
    }
    for (auto& [reason, refusal] : m_refusals)
        m_plan.refusals.push_back(refusal);
    std::stable_sort(m_plan.refusals.begin(), m_plan.refusals.end(),
                     [](const PlanRefusal& a, const PlanRefusal& b) { return a.candidates > b.candidates; });
    if (m_plan.top.empty()) {
        NoFit none;
        if (!m_plan.refusals.empty())
            none.mostCommon = m_plan.refusals.front();
        if (m_nearest)
            none.nearest = planned(m_nearest->choice, 0);
        m_plan.noFit = std::move(none);
    }
}

LayoutPlan LayoutSearch::run() {
    m_plan.gpusPerNode = m_space.gpusPerNode();
    m_plan.globalBatch = m_space.globalBatch();
    m_plan.tokensPerStep = tokensPerStep(m_base.model, m_space.globalBatch());
    m_plan.basis = m_profile.source;
    m_plan.pruning = m_options.prune;
    if (!m_space.whyEmpty().empty()) {
        m_plan.whyNone = m_space.whyEmpty();
        return m_plan;
    }
    const ComputeType dtype = ledgerFor(m_base.precision, m_base.fp32Gradients).compute;
    if (fastestGemmFlopsPerSecond(m_profile, dtype) <= 0) { // nothing can be timed, so nothing ranked
        m_plan.whyNone = "the hardware profile (" + m_profile.source + ") has no " +
                         std::string(computeTypeName(dtype)) + " GEMM rate: no layout can be timed";
        return m_plan;
    }
    judgeYours();
    const std::vector<Group> visits = groups();
    for (std::size_t g = 0; g < visits.size(); ++g) {
        if (m_options.keepGoing && !m_options.keepGoing(static_cast<double>(g) / static_cast<double>(visits.size()))) {
            m_plan.cancelled = true;
            break;
        }
        const Group& group = visits[g];
        if (m_options.prune && group.bound > threshold()) { // bounds ascend: every later group is out too
            for (std::size_t rest = g; rest < visits.size(); ++rest) {
                m_plan.counts.pruned += visits[rest].variants;
                if (visits[rest].bound <= m_yourSeconds)
                    m_mightBeFaster += visits[rest].variants;
            }
            break;
        }
        visitShape(group);
    }
    finish();
    return m_plan;
}

} // namespace

LayoutPlan planLayouts(const AccountingInput& base, const GpuCatalog& catalog, const HardwareProfile& profile,
                       const PlanOptions& options) {
    PlanOptions checked = options;
    checked.top = std::max<std::size_t>(1, options.top);
    return LayoutSearch(base, catalog, profile, checked).run();
}

} // namespace napkin
