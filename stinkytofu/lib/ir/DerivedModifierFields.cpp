//===- DerivedModifierFields.cpp - Fields of the derived modifiers --------===//
#include "stinkytofu/ir/DerivedModifierFields.h"
#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace stinkytofu {

namespace {
using FT = FieldType;
const DerivedField DsFields[] = {{"na", FT::Int}, {"offset", FT::Int}, {"offset0", FT::Int},
                                 {"offset1", FT::Int}, {"gds", FT::Bool}};
const DerivedField FlatFields[] = {
    {"offset12", FT::Int}, {"glc", FT::Bool}, {"slc", FT::Bool}, {"lds", FT::Bool}};
const DerivedField GlobalFields[] = {
    {"offset", FT::Int}, {"th", FT::String}, {"scope", FT::String}};
const DerivedField MubufFields[] = {
    {"offen", FT::Bool}, {"offset12", FT::Int}, {"glc", FT::Bool}, {"slc", FT::Bool},
    {"nt", FT::Bool},    {"lds", FT::Bool},     {"scope", FT::String}, {"th", FT::String},
    {"nv", FT::String}};
const DerivedField CacheScopeFields[] = {{"scope", FT::String}};
const DerivedField SmemFields[] = {{"offset", FT::Int}, {"glc", FT::Bool}, {"nv", FT::Bool}};
const DerivedField SdwaFields[] = {{"dst_sel", FT::Int},
                                   {"dst_unused", FT::Int},
                                   {"src0_sel", FT::Int},
                                   {"src1_sel", FT::Int}};
const DerivedField DppFields[] = {{"isDPP8", FT::Bool},   {"dpp8", FT::IntList},
                                  {"dppCtrl", FT::Int},   {"rowMask", FT::Int},
                                  {"bankMask", FT::Int},  {"boundCtrl", FT::Int},
                                  {"fi", FT::Int}};
const DerivedField Vop3Fields[] = {{"neg_src0", FT::Bool}, {"neg_src1", FT::Bool},
                                   {"neg_src2", FT::Bool}, {"abs_src0", FT::Bool},
                                   {"abs_src1", FT::Bool}, {"abs_src2", FT::Bool},
                                   {"clamp", FT::Bool},    {"omod", FT::Int}};
const DerivedField Vop3pFields[] = {
    {"op_sel", FT::IntList}, {"op_sel_hi", FT::IntList}, {"byte_sel", FT::IntList}};
const DerivedField True16Fields[] = {{"dst0", FT::Int}, {"dst1", FT::Int}, {"src0", FT::Int},
                                     {"src1", FT::Int}, {"src2", FT::Int}};
const DerivedField SetHiFields[] = {{"setHi", FT::Bool}};
const DerivedField SWaitCntFields[] = {
    {"vlcnt", FT::Int},  {"vscnt", FT::Int},  {"dlcnt", FT::Int},   {"dscnt", FT::Int},
    {"kmcnt", FT::Int},  {"vmcnt", FT::Int},  {"expcnt", FT::Int},  {"lgkmcnt", FT::Int}};
const DerivedField TensorFields[] = {{"tlcnt", FT::Int}};
const DerivedField AsyncFields[] = {{"asynccnt", FT::Int}};
const DerivedField StoreFields[] = {{"storecnt", FT::Int}};
const DerivedField DelayAluFields[] = {{"instid0Type", FT::String},
                                       {"instid0Distance", FT::Int},
                                       {"hasInstId1", FT::Bool},
                                       {"instSkip", FT::Int},
                                       {"instid1Type", FT::String},
                                       {"instid1Distance", FT::Int}};
const DerivedField WaitAluFields[] = {{"va_vdst", FT::Int}, {"va_sdst", FT::Int},
                                      {"va_ssrc", FT::Int}, {"hold_cnt", FT::Int},
                                      {"vm_vsrc", FT::Int}, {"va_vcc", FT::Int},
                                      {"sa_sdst", FT::Int}};
const DerivedField MfmaFields[] = {{"reuseA", FT::Bool},
                                   {"reuseB", FT::Bool},
                                   {"negLo", FT::IntList},
                                   {"negHi", FT::IntList},
                                   {"numNegSrcs", FT::Int}};
const DerivedField MatrixFmtFields[] = {{"fmtA", FT::String},      {"fmtB", FT::String},
                                        {"scaleFmtA", FT::String}, {"scaleFmtB", FT::String},
                                        {"scaleSelA", FT::Int},    {"scaleSelB", FT::Int}};

bool hasType(const AttrValue &V, FieldType T) {
  switch (T) {
  case FieldType::Int:
    return V.kind() == AttrValue::Kind::Integer;
  case FieldType::Bool:
    return V.kind() == AttrValue::Kind::Bool ||
           (V.kind() == AttrValue::Kind::Integer && (V.asInteger() == 0 || V.asInteger() == 1));
  case FieldType::String:
    return V.kind() == AttrValue::Kind::String || V.kind() == AttrValue::Kind::Ident;
  case FieldType::IntList:
    return V.kind() == AttrValue::Kind::List &&
           all_of(V.asList(), [](const AttrValue &E) {
             return E.kind() == AttrValue::Kind::Integer;
           });
  }
  return false;
}

StringRef typeName(FieldType T) {
  switch (T) {
  case FieldType::Int: return "an integer";
  case FieldType::Bool: return "true or false";
  case FieldType::String: return "a string";
  case FieldType::IntList: return "a list of integers";
  }
  return "";
}
} // namespace

ArrayRef<DerivedField> derivedFields(ModifierKind K) {
  switch (K) {
  case ModifierKind::Ds: return DsFields;
  case ModifierKind::Flat: return FlatFields;
  case ModifierKind::Global: return GlobalFields;
  case ModifierKind::Mubuf: return MubufFields;
  case ModifierKind::CacheScope: return CacheScopeFields;
  case ModifierKind::Smem: return SmemFields;
  case ModifierKind::Sdwa: return SdwaFields;
  case ModifierKind::Dpp: return DppFields;
  case ModifierKind::Vop3: return Vop3Fields;
  case ModifierKind::Vop3p: return Vop3pFields;
  case ModifierKind::True16: return True16Fields;
  case ModifierKind::Exec:
  case ModifierKind::Vcc: return SetHiFields;
  case ModifierKind::SWaitCnt: return SWaitCntFields;
  case ModifierKind::SWaitTensorCnt: return TensorFields;
  case ModifierKind::SWaitAsyncCnt: return AsyncFields;
  case ModifierKind::SWaitStoreCnt: return StoreFields;
  case ModifierKind::DelayAlu: return DelayAluFields;
  case ModifierKind::WaitAlu: return WaitAluFields;
  case ModifierKind::Mfma: return MfmaFields;
  case ModifierKind::MatrixFmt: return MatrixFmtFields;
  default: return {};
  }
}

Error checkDerivedFields(ModifierKind K, const AttrDict &Attrs) {
  ArrayRef<DerivedField> Fields = derivedFields(K);
  StringRef Key = Modifier::keyOf(K);
  for (const auto &[Name, Value] : Attrs.entries()) {
    const DerivedField *F = find_if(Fields, [&](const DerivedField &D) { return D.Name == Name; });
    if (F == Fields.end())
      return createStringError(inconvertibleErrorCode(),
                               "unknown key '" + Name + "' in mod." + Key);
    if (!hasType(Value, F->Type))
      return createStringError(inconvertibleErrorCode(), "attribute '" + Name +
                                                             "' must be " + typeName(F->Type));
  }
  return Error::success();
}

} // namespace stinkytofu
