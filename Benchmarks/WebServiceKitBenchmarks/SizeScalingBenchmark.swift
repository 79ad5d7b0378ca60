import Dispatch
import Foundation
import WebServiceKit

/// The size-scaling measure (issue 25): how the cost of work whose size is N grows from
/// N = 1,000 to 10,000 and 100,000. Goal: every growth exponent at most 1.15 (1.0 is linear),
/// and no crash.
///
/// Each (item, N) runs in a child process of its own (`webservice-bench --size-once ITEM N`), so
/// that no size inherits another's heap, caches or peak RSS. The child builds its inputs, does
/// the work once at a small N as a warm-up, builds the inputs of size N, times the work once and
/// prints `<CPU seconds> <wall seconds> <peak RSS growth in KiB>`. The figures and exponents use
/// the CPU time of the child's threads (`CLOCK_PROCESS_CPUTIME_ID`) around the work: on this
/// shared 2-core machine, wall time of a millisecond of work moved by a factor of 2 between runs
/// when other processes held the cores; CPU time does not count the waits.
///
/// The parent runs N = 1,000, 10,000 and 100,000 in turn; a point that took less than
/// ``cheapSeconds`` runs 3 times (5 below half a second) and the median counts. A size whose
/// time, extrapolated from the previous one with the exponent measured so far (at least 1), would
/// pass ``pointBudget`` is skipped and its estimate printed. A child killed by a signal is
/// reported as crashed, and the item misses its goal.
///
/// exponent = log(t₂ / t₁) / log(N₂ / N₁) on the total time of the work at consecutive sizes.
enum SizeScalingBenchmark {
    /// The argument that turns this executable into the child that does one (item, N) once.
    static let childFlag = "--size-once"
    /// `--size-items NAME,…` runs only these rows.
    static let itemsFlag = "--size-items"
    static let sizes = [1_000, 10_000, 100_000]
    static let goal = 1.15
    /// How much faster than its floor a memory-bound row may grow (``SizeScalingItem/floorRows``).
    static let floorMargin = 0.15
    /// Paging's second goal: loop protection that does not grow without bound. Peak-RSS growth
    /// per page between the smallest and the largest N, in bytes (0.4 KB before issue 25).
    static let maximumBytesPerPage = 64.0
    /// The evicting disk cache's second goal: a store costs about what it costs in a cache that
    /// is never full (7× before issue 25), at the largest N both measured.
    static let maximumEvictingRatio = 1.5
    /// Seconds: a size predicted to take longer is skipped.
    static let pointBudget = 60.0
    /// Seconds: a point faster than this is measured 3 times, 5 times below a quarter of it.
    static let cheapSeconds = 2.0
    static let warmUpSize = 100

    // MARK: Child process

    /// When `arguments` ask for the child mode, does the work once and returns the exit code.
    static func childExitCode(for arguments: [String]) -> Int32? {
        guard arguments.count >= 2, arguments[1] == childFlag else { return nil }
        guard arguments.count == 4, let item = SizeScalingItem.all.first(where: { $0.name == arguments[2] }),
            let size = Int(arguments[3]), size > 0
        else {
            let names = SizeScalingItem.all.map(\.name).joined(separator: ", ")
            FileHandle.standardError.write(Data("usage: webservice-bench \(childFlag) ITEM N (ITEM: \(names))\n".utf8))
            return 2
        }
        defer { TemporaryDirectories.removeAll() }
        do {
            try item.prepare(min(size, warmUpSize))()
            let work = try item.prepare(size)
            let peakBefore = ownPeakRSSKiB()
            let cpuStart = processCPUSeconds()
            let start = DispatchTime.now().uptimeNanoseconds
            try work()
            let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let cpu = processCPUSeconds() - cpuStart
            print("\(cpu) \(wall) \(ownPeakRSSKiB() - peakBefore)")
            fflush(nil)
            return 0
        } catch {
            FileHandle.standardError.write(Data("webservice-bench \(childFlag) \(item.name) \(size): \(error)\n".utf8))
            return 1
        }
    }

    // MARK: Measure

    /// What became of one size of one item.
    enum Outcome {
        /// Median CPU seconds, wall seconds and peak-RSS growth (KiB) over `runs` runs.
        case measured(seconds: Double, wallSeconds: Double, rssGrowthKiB: Double, runs: Int)
        case skipped(predictedSeconds: Double)
        case crashed(signal: Int32)
        case failed(String)
        case timedOut(afterSeconds: Double)
        /// Not run: a smaller size failed.
        case notRun
    }

    struct Point {
        let size: Int
        let outcome: Outcome

        var seconds: Double? {
            if case .measured(let seconds, _, _, _) = outcome { return seconds }
            return nil
        }

        /// Crashed, failed or timed out: the item misses its goal.
        var isBroken: Bool {
            switch outcome {
            case .crashed, .failed, .timedOut: return true
            case .measured, .skipped, .notRun: return false
            }
        }

        var rssGrowthKiB: Double? {
            if case .measured(_, _, let growth, _) = outcome { return growth }
            return nil
        }
    }

    static func run(arguments: [String] = CommandLine.arguments) {
        var items = SizeScalingItem.all
        if let index = arguments.firstIndex(of: itemsFlag), index + 1 < arguments.count {
            let names = Set(arguments[index + 1].split(separator: ",").map(String.init))
            items = items.filter { names.contains($0.name) }
        }
        guard let executable = Bundle.main.executablePath else {
            print("size scaling: skipped, the path of this executable is unknown")
            return
        }
        var measured: [String: [Point]] = [:]
        for item in items {
            let points = measure(item, executable: executable)
            measured[item.name] = points
            let plain = SizeScalingItem.plainRows[item.name].flatMap { measured[$0] }
            let floor = SizeScalingItem.floorRows[item.name].flatMap { measured[$0] }
            print(line(for: item, points, plainDiskCache: plain, floor: floor))
            fflush(nil)
        }
    }

    static func measure(_ item: SizeScalingItem, executable: String) -> [Point] {
        var points: [Point] = []
        var reference: (size: Int, seconds: Double)?
        var exponent: Double?
        var stopped = false
        for size in sizes {
            if stopped {
                points.append(Point(size: size, outcome: .notRun))
                continue
            }
            var predicted: Double?
            if let last = reference {
                let estimate = last.seconds * pow(Double(size) / Double(last.size), max(1, exponent ?? 1))
                predicted = estimate
                if estimate > pointBudget {
                    points.append(Point(size: size, outcome: .skipped(predictedSeconds: estimate)))
                    reference = (size, estimate)
                    continue
                }
            }
            let timeout = max(120, 3 * (predicted ?? 0))
            var seconds: [Double] = []
            var walls: [Double] = []
            var growths: [Double] = []
            var failure: Outcome?
            while failure == nil, seconds.count < runCount(afterFirst: walls.first) {
                switch runChild(executable: executable, item: item.name, size: size, timeout: timeout) {
                case .success(let run):
                    seconds.append(run.cpuSeconds)
                    walls.append(run.wallSeconds)
                    growths.append(run.rssGrowthKiB)
                case .failure(let outcome):
                    failure = outcome
                }
            }
            if let failure {
                points.append(Point(size: size, outcome: failure))
                stopped = true
                continue
            }
            let time = item.usesWallTime ? median(walls) : median(seconds)
            points.append(
                Point(
                    size: size,
                    outcome: .measured(
                        seconds: time, wallSeconds: median(walls), rssGrowthKiB: median(growths), runs: seconds.count)))
            // The budget is in wall time, the exponent in CPU time.
            if let last = reference, last.seconds > 0, time > 0, let previousCPU = points.dropLast().last?.seconds {
                exponent = log(time / previousCPU) / log(Double(size) / Double(last.size))
            }
            reference = (size, max(time, median(walls)))
        }
        return points
    }

    /// How many runs a point gets, once the first took `wall` seconds.
    static func runCount(afterFirst wall: Double?) -> Int {
        guard let wall else { return 1 }
        return wall < cheapSeconds / 4 ? 5 : wall < cheapSeconds ? 3 : 1
    }

    /// The exponents between consecutive measured sizes.
    static func exponents(_ points: [Point]) -> [Double] {
        zip(points, points.dropFirst()).compactMap { small, large in
            guard let t1 = small.seconds, let t2 = large.seconds, t1 > 0, t2 > 0 else { return nil }
            return log(t2 / t1) / log(Double(large.size) / Double(small.size))
        }
    }

    // MARK: Report

    /// One line in the suite's style: time per unit at each N, the exponents, the goal.
    static func line(
        for item: SizeScalingItem, _ points: [Point], plainDiskCache: [Point]?, floor: [Point]? = nil
    ) -> String {
        var smallest = Double.infinity
        for point in points {
            if let seconds = point.seconds { smallest = min(smallest, seconds / Double(point.size)) }
        }
        let scale = smallest < 1e-6 ? 1e9 : smallest < 1e-3 ? 1e6 : 1e3
        let unitName = smallest < 1e-6 ? "ns" : smallest < 1e-3 ? "us" : "ms"
        let figures = points.map { Self.describe($0, scale: scale) }
        let exponents = Self.exponents(points)
        var missed = points.contains { $0.isBroken } || exponents.contains { $0 > goal }
        var goals = String(format: "goal <= %.2f", goal)
        if let floor {
            // A row bounded by memory: where its time grows faster than 1.15, it must grow no
            // faster than the floor's (the same strings in a plain dictionary) plus 0.15.
            let floorExponents = Self.exponents(floor)
            if floorExponents.count == exponents.count {
                missed =
                    points.contains { $0.isBroken }
                    || zip(exponents, floorExponents).contains { $0 > goal && $0 > $1 + floorMargin }
                goals += String(format: ", or <= the floor's + %.2f (floor exponents ", floorMargin)
                goals += floorExponents.map { String(format: "%.2f", $0) }.joined(separator: ", ") + ")"
            }
        }
        var text =
            "size scaling, \(item.isIssue ? "" : "guard: ")\(item.label): \(figures.joined(separator: " | ")) \(unitName) per \(item.unit)"
            + " at N = \(points.map { grouped($0.size) }.joined(separator: " | "))"
            + "; exponents \(exponents.isEmpty ? "-" : exponents.map { String(format: "%.2f", $0) }.joined(separator: ", "))"
        if item.tracksMemory {
            var growths: [String] = []
            var measured: [(size: Int, kibibytes: Double)] = []
            for point in points {
                if let growth = point.rssGrowthKiB {
                    growths.append(String(format: "+%.1f", growth / 1024))
                    measured.append((point.size, growth))
                } else {
                    growths.append("-")
                }
            }
            text += "; peak RSS \(growths.joined(separator: " | ")) MiB"
            if let first = measured.first, let last = measured.last, last.size > first.size {
                let perUnit = (last.kibibytes - first.kibibytes) * 1024 / Double(last.size - first.size)
                text += String(format: " (%.0f B per \(item.unit) from ", perUnit)
                text += "\(grouped(first.size)) to \(grouped(last.size)))"
                missed = missed || perUnit > maximumBytesPerPage
            }
            goals += String(format: ", <= %.0f B per \(item.unit)", maximumBytesPerPage)
        }
        if let plain = plainDiskCache {
            var ratios: [String] = []
            var largest: Double?
            for (evicting, full) in zip(points, plain) {
                if let slow = evicting.seconds, let fast = full.seconds, fast > 0 {
                    ratios.append(String(format: "%.1fx", slow / fast))
                    largest = slow / fast
                } else {
                    ratios.append("-")
                }
            }
            text += "; \(ratios.joined(separator: " | ")) the never-full store's time"
            missed = missed || (largest ?? 0) > maximumEvictingRatio
            goals += String(format: ", <= %.1fx the never-full store at the largest N", maximumEvictingRatio)
        }
        if Set(SizeScalingItem.floorRows.values).contains(item.name) {
            // The floor is what memory costs here, no library code: a measure, not a goal.
            return text + "; the floor of the memory-bound rows, no goal of its own"
        }
        let verdict = missed ? "MISSED" : exponents.isEmpty ? "not measured (one size only)" : "met"
        return text + "; \(goals): \(verdict)"
    }

    /// A point's figure: time per unit times `scale`, or what became of it.
    static func describe(_ point: Point, scale: Double) -> String {
        switch point.outcome {
        case .measured(let seconds, _, _, _):
            return figure(seconds / Double(point.size) * scale)
        case .skipped(let predicted):
            return String(format: "skipped (would take ~%.0f s)", predicted)
        case .crashed(let signal):
            return "CRASHED (signal \(signal))"
        case .failed(let reason):
            return "FAILED (\(reason))"
        case .timedOut(let limit):
            return String(format: "TIMED OUT (killed after %.0f s)", limit)
        case .notRun:
            return "not run"
        }
    }

    /// Three significant figures at most, no exponent notation.
    static func figure(_ value: Double) -> String {
        String(format: value >= 100 ? "%.0f" : value >= 10 ? "%.1f" : "%.2f", value)
    }

    /// `100000` as `100,000`.
    static func grouped(_ value: Int) -> String {
        var digits = String(value)
        var groups: [Substring] = []
        while digits.count > 3 {
            groups.insert(Substring(digits.suffix(3)), at: 0)
            digits = String(digits.dropLast(3))
        }
        groups.insert(Substring(digits), at: 0)
        return groups.joined(separator: ",")
    }
}
