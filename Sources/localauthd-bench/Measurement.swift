/// One row of the bench table: a figure per run, the median, and its target.
struct Measurement {
  /// A short machine-readable key ("canEvaluateThroughput").
  var key: String
  /// What was measured, for the table.
  var title: String
  /// The figure of each run.
  var samples: [Double]
  /// The unit of the figures.
  var unit: String
  /// The target, in words.
  var target: String
  /// Whether the median meets the target; nil when there is no pass/fail figure.
  var met: Bool?
  /// Extra figures worth keeping (medians), by name.
  var details: [(String, Double)] = []

  /// The median of the samples.
  var median: Double { Statistics.median(samples) }
}
