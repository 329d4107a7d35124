#pragma once
// What the fleet file shares with the ceilings file: the layout of one ceilings file at
// any HDF5 location (a file's root, or a group such as /ranks/3), and the atomic write;
// and the reading of a whole file. Private to this library and its fuzz target.

#include <hdf5.h>

#include <functional>
#include <string>
#include <vector>

#include "rooftop/core/model.hpp"

namespace rooftop::ceilings::detail {

// Root attributes (schema, version, provenance), /machine, /ceilings, /sweeps and, where
// there are kernels, /kernels, under `location`.
void write_ceilings_at(hid_t location, const core::CeilingsFile& file);
// Reads what write_ceilings_at wrote; checks the schema name and major version.
core::CeilingsFile read_ceilings_at(hid_t location);

// What read_file makes of an open file (the fleet's summary may be empty); errors are
// prefixed with `name`.
core::CeilingsFile read_ceilings_file(hid_t file, const std::string& name);
// The same on the bytes of a file, opened in memory (HDF5's core driver) and read in this
// process, without the child process read_file first reads in: libhdf5's own crashes on a
// damaged file are not contained here. The entry point of the ceilings-file fuzz target
// (fuzz/fuzz_ceilings_file.cpp says how it tells them from rooftop's).
core::CeilingsFile read_ceilings_image(const std::string& bytes, const std::string& name);

// A table of rows laid out as /ceilings (the ceilings, and since 1.7 the figures of
// /costs and /matrix) under `parent`.
void write_ceiling_rows(hid_t parent, const char* name, const std::vector<core::Ceiling>& rows);
std::vector<core::Ceiling> read_ceiling_rows(hid_t parent, const char* name);

// The kernel records (/kernels: kernels_io.cpp), written only where there are some; none
// from a file without the group (a characterization alone).
void write_kernels(hid_t location, const std::vector<core::KernelRecord>& kernels);
std::vector<core::KernelRecord> read_kernels(hid_t location);

// The groups of figures (/costs, /matrix: schema 1.7), each written only where it has
// something; read where present (older files have none).
void write_figures(hid_t location, const core::CeilingsFile& file);
void read_figures(hid_t location, core::CeilingsFile& file);

// Creates an HDF5 file at a temporary name beside `path`, lets `fill` write into it,
// then renames it to `path`; on any failure the temporary is removed and an existing
// `path` is left untouched. Errors are prefixed with `path`.
void write_hdf5_atomically(const std::string& path, const std::function<void(hid_t)>& fill);

}  // namespace rooftop::ceilings::detail
