/// The release of localauthd, its client library and localauthctl (one number for all three).
public let localauthdVersion = "0.1.0"
