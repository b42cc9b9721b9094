// Placeholder for the MUSA SDK's version header, for torchada-nvcc's dry-run tests. This tree has no
// compiler: tests/inputs/musa is a MUSA_HOME that --dryrun can name, nothing more.
#pragma once
#define MUSART_VERSION 40300
