#pragma once
// HDF5 files that are foreign or altered in precise ways, built with the HDF5 C API so
// that the tests do not depend on the reader they are testing.

#include <hdf5.h>

#include <stdexcept>
#include <string>

namespace rooftop::testing {

// A well-formed HDF5 file that is not a ceilings file: one small dataset, no schema.
inline void write_foreign_hdf5(const std::string& path) {
  const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (file < 0) throw std::runtime_error("H5Fcreate failed");
  const hsize_t dims[1] = {4};
  const hid_t space = H5Screate_simple(1, dims, nullptr);
  const hid_t set = H5Dcreate2(file, "temperature", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT,
                               H5P_DEFAULT, H5P_DEFAULT);
  const double values[4] = {1.0, 2.0, 3.0, 4.0};
  const herr_t status = H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values);
  H5Dclose(set);
  H5Sclose(space);
  H5Fclose(file);
  if (status < 0) throw std::runtime_error("H5Dwrite failed");
}

// Replaces (deletes and recreates) a fixed-size string attribute on the root group.
inline void rewrite_root_string_attr(const std::string& path, const char* name,
                                     const std::string& value) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  if (file < 0) throw std::runtime_error("H5Fopen failed: " + path);
  herr_t status = 0;
  if (H5Aexists(file, name) > 0) status = H5Adelete(file, name);
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, value.size() + 1);
  H5Tset_strpad(type, H5T_STR_NULLTERM);
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t attr = H5Acreate2(file, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  if (status >= 0 && attr >= 0) status = H5Awrite(attr, type, value.c_str());
  if (attr >= 0) H5Aclose(attr);
  H5Sclose(space);
  H5Tclose(type);
  H5Fclose(file);
  if (status < 0 || attr < 0) throw std::runtime_error("cannot rewrite attribute " + std::string(name));
}

// Deletes attribute `name` of the group `group`: a file written before the attribute
// existed.
inline void delete_attr(const std::string& path, const char* group, const char* name) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  if (file < 0) throw std::runtime_error("H5Fopen failed: " + path);
  const hid_t g = H5Gopen2(file, group, H5P_DEFAULT);
  const herr_t status = g >= 0 ? H5Adelete(g, name) : -1;
  if (g >= 0) H5Gclose(g);
  H5Fclose(file);
  if (status < 0) throw std::runtime_error("cannot delete attribute " + std::string(name));
}

}  // namespace rooftop::testing
