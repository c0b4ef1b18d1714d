//===- CycleHistogramTest.cpp - Percentiles in bounded memory -------------===//
#include "asm-instrument/trace/CycleHistogram.h"
#include "gtest/gtest.h"

using stinkytofu::trace::CycleHistogram;

TEST(CycleHistogram, ExactBelow4096) {
  CycleHistogram H;
  for (uint64_t V = 1; V <= 100; ++V)
    H.add(V);
  EXPECT_EQ(H.count(), 100u);
  EXPECT_EQ(H.total(), 5050u);
  EXPECT_EQ(H.min(), 1u);
  EXPECT_EQ(H.max(), 100u);
  EXPECT_EQ(H.percentile(50), 50u);
  EXPECT_EQ(H.percentile(99), 99u);
  EXPECT_EQ(H.percentile(100), 100u);
}

TEST(CycleHistogram, LargeValuesWithinBucketPrecision) {
  CycleHistogram H;
  for (uint64_t V : {5000u, 123456u, 1000000u, 1u << 30})
    H.add(V);
  // Each value is reported as its bucket's lower bound: at most 1/128 low.
  for (double P : {25.0, 50.0, 75.0, 100.0}) {
    uint64_t Exact = P == 25 ? 5000 : P == 50 ? 123456 : P == 75 ? 1000000 : 1u << 30;
    uint64_t Got = H.percentile(P);
    EXPECT_LE(Got, Exact) << P;
    EXPECT_GE(Got, Exact - Exact / 128) << P;
  }
  EXPECT_EQ(H.min(), 5000u);
  EXPECT_EQ(H.max(), uint64_t(1) << 30);
}

TEST(CycleHistogram, MemoryDoesNotGrowWithCount) {
  CycleHistogram Few, Many;
  for (int I = 0; I < 10; ++I)
    Few.add(777777);
  for (int I = 0; I < 1000000; ++I)
    Many.add(777777);
  EXPECT_EQ(Few.percentile(50), Many.percentile(50));
  EXPECT_EQ(Many.count(), 1000000u);
  EXPECT_EQ(Many.total(), 777777000000u);
}

TEST(CycleHistogram, Empty) {
  CycleHistogram H;
  EXPECT_EQ(H.count(), 0u);
  EXPECT_EQ(H.min(), 0u);
  EXPECT_EQ(H.percentile(50), 0u);
}
