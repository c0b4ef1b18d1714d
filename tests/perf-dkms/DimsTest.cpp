// config1 codec, validation against topology and the --dims parser.
#include <gtest/gtest.h>

#include "pd_arch.h"
#include "pd_dims.h"

namespace {

pd_dims dimsOf(std::initializer_list<std::pair<pd_dim, uint8_t>> given,
               bool aggregate = false) {
  pd_dims d{};
  for (auto [dim, value] : given) {
    d.value[dim] = value;
    d.given |= PD_DIM_BIT(dim);
  }
  d.aggregate = aggregate;
  return d;
}

bool sameDims(const pd_dims &a, const pd_dims &b) {
  return a.given == b.given && a.aggregate == b.aggregate &&
         std::equal(a.value, a.value + PD_DIM_COUNT, b.value);
}

const pd_topology kGfx1201{1, 4, 2, 4, 8};
const unsigned kSeSaWgp =
    PD_DIM_BIT(PD_DIM_SE) | PD_DIM_BIT(PD_DIM_SA) | PD_DIM_BIT(PD_DIM_WGP);

TEST(PerfDkmsDims, EncodingLayout) {
  // se=1 (bits 8-15) + SE given (bit 42); sa=0 + SA given (bit 43); wgp=2
  // (bits 24-31) + WGP given (bit 44).
  pd_dims d = dimsOf({{PD_DIM_SE, 1}, {PD_DIM_SA, 0}, {PD_DIM_WGP, 2}});
  EXPECT_EQ(pd_dims_encode(&d), 0x0000'1C00'0200'0100ull);
  pd_dims agg = dimsOf({}, true);
  EXPECT_EQ(pd_dims_encode(&agg), 1ull << 40);
  pd_dims none{};
  EXPECT_EQ(pd_dims_encode(&none), 0u);
}

TEST(PerfDkmsDims, SeZeroIsNotUnset) {
  pd_dims se0 = dimsOf({{PD_DIM_SE, 0}});
  pd_dims none{};
  uint64_t c = pd_dims_encode(&se0);
  EXPECT_NE(c, pd_dims_encode(&none));
  EXPECT_EQ(c, 1ull << 42);
  pd_dims back{};
  ASSERT_EQ(pd_dims_decode(c, &back, nullptr), 0);
  EXPECT_EQ(back.given, PD_DIM_BIT(PD_DIM_SE));
  EXPECT_EQ(back.value[PD_DIM_SE], 0);
  ASSERT_EQ(pd_dims_decode(0, &back, nullptr), 0);
  EXPECT_EQ(back.given, 0);
}

TEST(PerfDkmsDims, RoundTripEveryGivenMaskAndValues) {
  const uint8_t values[] = {0, 1, 7, 128, 255};
  for (unsigned mask = 0; mask < (1u << PD_DIM_COUNT); ++mask)
    for (uint8_t v : values)
      for (bool agg : {false, true}) {
        pd_dims d{};
        for (unsigned dim = 0; dim < PD_DIM_COUNT; ++dim)
          if (mask & (1u << dim)) {
            d.given |= 1u << dim;
            d.value[dim] = static_cast<uint8_t>(v + dim);
          }
        d.aggregate = agg;
        pd_dims back{};
        ASSERT_EQ(pd_dims_decode(pd_dims_encode(&d), &back, nullptr), 0);
        EXPECT_TRUE(sameDims(d, back)) << "mask " << mask << " value " << +v;
      }
}

TEST(PerfDkmsDims, DecodeRejects) {
  pd_dims d{};
  const char *why = nullptr;
  // Reserved bits 46-63.
  EXPECT_EQ(pd_dims_decode(1ull << 46, &d, &why), -EINVAL);
  EXPECT_STREQ(why, "reserved config1 bits 46-63 are set");
  EXPECT_EQ(pd_dims_decode(1ull << 63, &d, nullptr), -EINVAL);
  // A value without its given flag: the reference's se=2 meaning is refused.
  for (unsigned dim = 0; dim < PD_DIM_COUNT; ++dim) {
    EXPECT_EQ(pd_dims_decode(2ull << (8 * dim), &d, &why), -EINVAL) << dim;
    EXPECT_STREQ(why, "a dimension value is set without its given flag");
  }
}

TEST(PerfDkmsDims, ValidateAgainstCounterAndTopology) {
  const char *why = nullptr;
  pd_dims ok = dimsOf({{PD_DIM_SE, 3}, {PD_DIM_SA, 1}, {PD_DIM_WGP, 3}});
  EXPECT_EQ(pd_dims_validate(&ok, kSeSaWgp, &kGfx1201, &why), 0);
  pd_dims none{};
  EXPECT_EQ(pd_dims_validate(&none, 0, &kGfx1201, &why), 0);
  pd_dims agg = dimsOf({}, true);
  EXPECT_EQ(pd_dims_validate(&agg, 0, &kGfx1201, &why), 0);

  pd_dims aggAndSe = dimsOf({{PD_DIM_SE, 0}}, true);
  EXPECT_EQ(pd_dims_validate(&aggAndSe, kSeSaWgp, &kGfx1201, &why), -EINVAL);
  EXPECT_STREQ(why, "aggregate cannot be combined with a dimension");

  // se=0 on a global counter is rejected now that it can be expressed.
  pd_dims se0 = dimsOf({{PD_DIM_SE, 0}});
  EXPECT_EQ(pd_dims_validate(&se0, 0, &kGfx1201, &why), -EINVAL);
  EXPECT_STREQ(why, "the counter cannot be split by this dimension");

  const std::pair<pd_dim, uint8_t> outOfRange[] = {
      {PD_DIM_XCC, 1}, {PD_DIM_SE, 4}, {PD_DIM_SA, 2}, {PD_DIM_WGP, 4},
      {PD_DIM_CU, 8}};
  for (auto [dim, value] : outOfRange) {
    pd_dims d = dimsOf({{dim, value}});
    EXPECT_EQ(pd_dims_validate(&d, 0x1f, &kGfx1201, &why), -EINVAL) << dim;
    EXPECT_STREQ(why, "dimension value beyond the GPU's topology");
  }
}

TEST(PerfDkmsDims, Parse) {
  pd_dims d{};
  ASSERT_EQ(pd_dims_parse("se=1,sa=0,wgp=2", &d, nullptr), 0);
  EXPECT_TRUE(sameDims(d, dimsOf({{PD_DIM_SE, 1}, {PD_DIM_SA, 0}, {PD_DIM_WGP, 2}})));
  ASSERT_EQ(pd_dims_parse("aggregate", &d, nullptr), 0);
  EXPECT_TRUE(d.aggregate);
  ASSERT_EQ(pd_dims_parse("", &d, nullptr), 0);
  EXPECT_EQ(d.given, 0);
  const char *bad[] = {"se",     "se=",   "se=256", "se=-1", "se=1,se=2",
                       "foo=1",  "se=1,", "se=1x",  "aggregate=2", ",se=1"};
  for (const char *text : bad) {
    const char *why = nullptr;
    EXPECT_EQ(pd_dims_parse(text, &d, &why), -EINVAL) << text;
    EXPECT_NE(why, nullptr) << text;
  }
}

} // namespace
