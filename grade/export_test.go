package grade

// WarpNoise is warpNoise, for the specs.
var WarpNoise = warpNoise
