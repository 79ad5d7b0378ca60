import Foundation

/// Runs a measured body and its baseline in alternating rounds (library, baseline, library, …),
/// so that both see the same machine state; on a noisy 2-core VM only such same-process ratios
/// are trustworthy.
struct Comparison {
    let name: String
    let unit: String
    /// The goal on the ratio library/baseline (lower is better), and on the absolute figure.
    let maximumRatio: Double
    let maximumValue: Double?
    let rounds: Int
    let iterations: Int
    let library: () -> Void
    let baseline: () -> Void

    struct Result {
        let libraryMedian: Double
        let baselineMedian: Double
        let ratios: [Double]

        var ratioMedian: Double { median(ratios) }
        var ratioSpread: (Double, Double) { (ratios.min() ?? 0, ratios.max() ?? 0) }
    }

    func run() -> Result {
        // Warm up both paths once so that the first round pays no lazy initialisation.
        for _ in 0..<max(1, iterations / 10) {
            library()
            baseline()
        }
        var libraryTimes: [Double] = []
        var baselineTimes: [Double] = []
        var ratios: [Double] = []
        for _ in 0..<rounds {
            let lib = timePerIteration(library)
            let base = timePerIteration(baseline)
            libraryTimes.append(lib)
            baselineTimes.append(base)
            ratios.append(lib / base)
        }
        return Result(libraryMedian: median(libraryTimes), baselineMedian: median(baselineTimes), ratios: ratios)
    }

    /// Nanoseconds per iteration.
    private func timePerIteration(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<iterations { body() }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(iterations)
    }

    func report(_ result: Result) {
        let (low, high) = result.ratioSpread
        let ratioMet = result.ratioMedian <= maximumRatio
        let valueMet = maximumValue.map { result.libraryMedian <= $0 } ?? true
        let valueGoal = maximumValue.map { String(format: " and <= %.0f %@", $0, unit) } ?? ""
        print(
            String(
                format:
                    "%@: %.0f %@ vs baseline %.0f %@ -> ratio %.2f (spread %.2f-%.2f over %d rounds); goal <= %.2f%@: %@",
                name, result.libraryMedian, unit, result.baselineMedian, unit, result.ratioMedian, low, high, rounds,
                maximumRatio, valueGoal, ratioMet && valueMet ? "met" : "MISSED"))
    }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// Keeps the optimiser from deleting work whose result is otherwise unused.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
