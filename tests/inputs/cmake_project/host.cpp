int host_checksum(const float* data, int n) {
  float sum = 0;
  for (int i = 0; i < n; ++i) sum += data[i];
  return static_cast<int>(sum);
}
