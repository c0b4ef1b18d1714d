// Counter sharing: one START per counter, STOP with the last reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "pd_share.h"

namespace {

const pd_arch &gfx1201() { return *pd_arch_find("gfx1201"); }

struct Ref {
  pd_programmed_counter counter;
  bool neededStart;
};

Ref acquire(pd_counter_pool &pool, pd_counter_id id) {
  Ref r{};
  EXPECT_EQ(pd_pool_acquire(&pool, &gfx1201(), id, &r.counter, &r.neededStart), 0);
  return r;
}

TEST(PerfDkmsSharing, TwoEventsOneStartStopAfterLastReleaseEitherOrder) {
  for (bool ownerFirst : {true, false}) {
    pd_counter_pool pool;
    pd_pool_init(&pool);
    Ref owner = acquire(pool, PD_CTR_SQ_WAVES);
    Ref sharer = acquire(pool, PD_CTR_SQ_WAVES);
    EXPECT_TRUE(owner.neededStart);
    EXPECT_FALSE(sharer.neededStart);
    EXPECT_EQ(owner.counter.slot, sharer.counter.slot);
    EXPECT_EQ(owner.counter.select, 4u);

    bool freed = true, stop = true;
    const Ref &first = ownerFirst ? owner : sharer;
    const Ref &second = ownerFirst ? sharer : owner;
    ASSERT_EQ(pd_pool_release(&pool, &first.counter, &freed, &stop), 0);
    EXPECT_FALSE(freed);
    EXPECT_FALSE(stop); // the reference sent STOP here when the owner left first
    ASSERT_EQ(pd_pool_release(&pool, &second.counter, &freed, &stop), 0);
    EXPECT_TRUE(freed);
    EXPECT_TRUE(stop);
    EXPECT_EQ(pd_pool_release(&pool, &second.counter, &freed, &stop), -EINVAL);
  }
}

TEST(PerfDkmsSharing, ThreeEventsEveryReleaseOrder) {
  std::vector<int> order = {0, 1, 2};
  do {
    pd_counter_pool pool;
    pd_pool_init(&pool);
    Ref refs[3];
    int starts = 0;
    for (Ref &r : refs) {
      r = acquire(pool, PD_CTR_GL2C_HIT);
      starts += r.neededStart;
    }
    EXPECT_EQ(starts, 1);
    for (size_t i = 0; i < order.size(); ++i) {
      bool freed, stop;
      ASSERT_EQ(pd_pool_release(&pool, &refs[order[i]].counter, &freed, &stop), 0);
      bool last = i + 1 == order.size();
      EXPECT_EQ(freed, last);
      EXPECT_EQ(stop, last);
    }
  } while (std::next_permutation(order.begin(), order.end()));
}

TEST(PerfDkmsSharing, StopWaitsForOtherCounters) {
  pd_counter_pool pool;
  pd_pool_init(&pool);
  Ref sq = acquire(pool, PD_CTR_SQ_WAVES);
  Ref valu = acquire(pool, PD_CTR_SQ_INSTS_VALU);
  Ref ta = acquire(pool, PD_CTR_TA_TA_BUSY);
  EXPECT_TRUE(valu.neededStart);
  EXPECT_EQ(sq.counter.slot, 0);
  EXPECT_EQ(valu.counter.slot, 1); // a different counter takes the next slot
  EXPECT_EQ(ta.counter.slot, 0);   // slots are per block

  pd_programmed_counter active[8];
  ASSERT_EQ(pd_pool_active(&pool, &gfx1201(), active, 8), 3u);
  EXPECT_EQ(active[0].block, PD_BLOCK_SQ);
  EXPECT_EQ(active[1].select, 50u);
  EXPECT_EQ(active[2].block, PD_BLOCK_TA);

  bool freed, stop;
  ASSERT_EQ(pd_pool_release(&pool, &sq.counter, &freed, &stop), 0);
  EXPECT_TRUE(freed);
  EXPECT_FALSE(stop); // SQ_INSTS_VALU and TA still count
  ASSERT_EQ(pd_pool_release(&pool, &ta.counter, &freed, &stop), 0);
  EXPECT_FALSE(stop);
  ASSERT_EQ(pd_pool_release(&pool, &valu.counter, &freed, &stop), 0);
  EXPECT_TRUE(stop);
  // The freed slot 0 is claimed again by the next counter.
  EXPECT_EQ(acquire(pool, PD_CTR_SQ_INSTS_SALU).counter.slot, 0);
}

TEST(PerfDkmsSharing, NotFoundAndBusy) {
  pd_counter_pool pool;
  pd_pool_init(&pool);
  pd_programmed_counter c;
  bool start;
  EXPECT_EQ(pd_pool_acquire(&pool, pd_arch_find("gfx90a"), PD_CTR_SQ_WAVES_32,
                            &c, &start), -ENOENT);
  EXPECT_EQ(pd_pool_acquire(&pool, &gfx1201(), PD_CTR_COUNT, &c, &start), -ENOENT);
  // TA has two slots: a third distinct TA counter finds none.
  acquire(pool, PD_CTR_TA_TA_BUSY);
  acquire(pool, PD_CTR_TA_BUFFER_LOAD_WAVEFRONTS);
  EXPECT_EQ(pd_pool_acquire(&pool, &gfx1201(), PD_CTR_TA_BUFFER_STORE_WAVEFRONTS,
                            &c, &start), -EBUSY);
  // ...but another event on a counter already there shares it.
  EXPECT_EQ(pd_pool_acquire(&pool, &gfx1201(), PD_CTR_TA_TA_BUSY, &c, &start), 0);
  EXPECT_FALSE(start);
}

} // namespace
