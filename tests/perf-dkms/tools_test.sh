#!/usr/bin/env bash
# perf-dkms-packets and pm4-decode on good and bad input.
#   tools_test.sh PERF_DKMS_PACKETS PM4_DECODE
set -uo pipefail
packets=$1 decode=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# expect_error DESCRIPTION COMMAND...: exit 1, "error: ..." on stderr, no stdout.
expect_error() {
  local what=$1
  shift
  "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  local rc=$?
  [ "$rc" = 1 ] || fail "$what: exit $rc, want 1"
  grep -q '^error: ' "$tmp/err" || fail "$what: no 'error: ' on stderr: $(cat "$tmp/err")"
  [ ! -s "$tmp/out" ] || fail "$what: wrote to stdout"
}

# STOP on gfx1201, one dword per line.
"$packets" gfx1201 sq_waves --sequence stop --hex >"$tmp/stop" || fail "stop --hex"
printf '0xC0017900\n0x00000200\n0xE0000000\n0xC0017900\n0x00001808\n0x00000002\n0xC0004600\n0x00000407\n' >"$tmp/stop.want"
cmp -s "$tmp/stop" "$tmp/stop.want" || fail "stop --hex differs: $(cat "$tmp/stop")"

# The text listing is what pm4-decode makes of the hex stream.
for seq in start read stop; do
  "$packets" gfx90a sq_waves,ta_ta_busy,gl2c_hit --sequence $seq --hex >"$tmp/$seq.hex" || fail "$seq --hex"
  "$packets" gfx90a sq_waves,ta_ta_busy,gl2c_hit --sequence $seq >"$tmp/$seq.txt" || fail "$seq text"
  "$decode" --arch gfx90a "$tmp/$seq.hex" >"$tmp/$seq.decoded" || fail "decode $seq"
  cmp -s "$tmp/$seq.txt" "$tmp/$seq.decoded" || fail "$seq: pm4-decode differs from the builder's listing"
done
grep -q '^SET_UCONFIG_REG SQ_PERFCOUNTER0_SELECT(0xD9C0) = 0x0F0FF004$' "$tmp/start.txt" ||
  fail "GFX9 SQ select with its masks"
grep -q '^COPY_DATA src_sel=4(perf) SQ_PERFCOUNTER0_LO(0xD1C0) ' "$tmp/read.txt" ||
  fail "GFX9 SQ read from 0xD1C0"
grep -q '^SET_UCONFIG_REG TCC_PERFCOUNTER0_SELECT(0xDB80) = 0x00000011$' "$tmp/start.txt" ||
  fail "GFX9 L2 counters are named TCC"
# stdin, comments and 0x-less dwords.
printf '# stop\nC0017900 00001808 00000002\n' | "$decode" --arch gfx1201 >"$tmp/stdin" || fail "decode stdin"
grep -q '^SET_UCONFIG_REG CP_PERFMON_CNTL(0xD808) = 0x00000002 \[stop\]$' "$tmp/stdin" || fail "stdin listing: $(cat "$tmp/stdin")"

# Streams from other writers: the compute header bit and a SET INDEX field.
printf 'C0017902 20000200 E0000000\n' | "$decode" --arch gfx1201 >"$tmp/foreign" || fail "decode foreign"
grep -q '^SET_UCONFIG_REG compute index=2 GRBM_GFX_INDEX(0xC200) = 0xE0000000 ' "$tmp/foreign" ||
  fail "foreign listing: $(cat "$tmp/foreign")"

# --json: the event with se=1,sa=0,wgp=2 takes reading 10 of 32.
"$packets" gfx1201 sq_waves --sequence read --dims se=1,sa=0,wgp=2 --json >"$tmp/json" || fail "json"
grep -q '"readings": 32, "selected_readings": \[10\]' "$tmp/json" || fail "json selection: $(cat "$tmp/json")"
"$packets" gfx1201 sq_waves --sequence read --dims se=0 --json >"$tmp/json0" || fail "json se=0"
grep -q '"selected_readings": \[0, 1, 2, 3, 4, 5, 6, 7\]' "$tmp/json0" || fail "se=0 selects SE 0: $(cat "$tmp/json0")"

expect_error "unknown arch" "$packets" gfx906 sq_waves --sequence start
expect_error "unknown counter" "$packets" gfx1201 sq_wave --sequence start
expect_error "counter not on arch" "$packets" gfx90a sq_waves_32 --sequence start
expect_error "duplicate counter" "$packets" gfx1201 sq_waves,sq_waves --sequence start
expect_error "no slot" "$packets" gfx1201 ta_ta_busy,ta_buffer_load_wavefronts,ta_buffer_store_wavefronts --sequence start
expect_error "bad sequence" "$packets" gfx1201 sq_waves --sequence go
expect_error "missing sequence" "$packets" gfx1201 sq_waves
expect_error "dims out of range" "$packets" gfx1201 sq_waves --sequence read --dims se=4
expect_error "dims unsupported" "$packets" gfx1201 grbm_count --sequence read --dims se=0
expect_error "dims syntax" "$packets" gfx1201 sq_waves --sequence read --dims se
expect_error "aggregate with se" "$packets" gfx1201 sq_waves --sequence read --dims aggregate,se=1
expect_error "unaligned result" "$packets" gfx1201 sq_waves --sequence read --result-addr 0x10
expect_error "unknown option" "$packets" gfx1201 sq_waves --sequence read --bogus
printf 'C0017900 zz\n' >"$tmp/bad"
expect_error "bad dword" "$decode" "$tmp/bad"
printf 'C0044000 00110504\n' >"$tmp/short"
expect_error "truncated packet" "$decode" "$tmp/short"
printf 'C0001200 0\n' >"$tmp/unknown"
expect_error "unknown opcode" "$decode" "$tmp/unknown"
expect_error "missing file" "$decode" "$tmp/none"
expect_error "decode unknown arch" "$decode" --arch gfx906 "$tmp/stop"

[ "$failures" = 0 ] || { echo "$failures failure(s)" >&2; exit 1; }
echo "perf-dkms tools: all checks passed"
