#include "model/side_input_registry.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "base/doc_section_test_util.h"
#include "formats/etdump_test_util.h"
#include "formats/tensor_test_util.h"

namespace htpscope::side_input_registry_test {
namespace {

constexpr SideInput kEveryKind[] = {SideInput::kHeapCheckpoints, SideInput::kTensorSet,
                                    SideInput::kEtdumpDebugTensors, SideInput::kSamplingProfile};

class SideInputRegistry : public testing_support::ScratchDirTest {
 protected:
  // ExecuTorch's heap file: the heap grew by 132652 bytes.
  std::string HeapFile() {
    return Write("htp_heap_usage.txt",
                 "DSP:before_context_created (bytes), 928212\n"
                 "DSP:after_context_freed (bytes), 1060864\n");
  }
  // Two .npy tensors in a directory.
  std::string NpyDirectory() {
    Write("tensors/conv.npy", testing_support::NpyImage("<f4", "(2, 3)", 24));
    Write("tensors/relu.npy", testing_support::NpyImage("|u1", "(4,)", 4));
    return dir_ + "/tensors";
  }
  // Collapsed stacks: 30 + 120 samples.
  std::string CollapsedStacks() {
    return Write("lowering.txt", "main;quantize 30\nmain;compile;qnn_preprocess 120\n");
  }
  // An ETDump whose debug events logged two float32 tensors (handles 1 and
  // 2, two and three elements), and its debug buffer; returns the ETDump.
  std::string EtdumpWithDebugTensors() {
    const float values[] = {1.5f, -2.0f, 0.25f, 4.0f, 8.0f};  // at bytes 0 and 8
    std::string bytes(sizeof(values), '\0');
    std::memcpy(bytes.data(), values, sizeof(values));
    buffer_ = Write("debug_output.bin", bytes);
    auto event = [](int handle, int elements, int offset) {
      return fmt::format(
          R"({{"debug_event": {{"delegate_debug_id_int": {}, "debug_entry": {{"val": "Tensor", )"
          R"("tensor": {{"scalar_type": "FLOAT", "sizes": [{}], "offset": {}}}}}}}}})",
          handle, elements, offset);
    };
    return testing_support::WriteEtdump(
        dir_, "run",
        R"({"version": 0, "run_data": [{"name": "Execute", "events": [)" + event(1, 2, 0) + ", " +
            event(2, 3, 8) + "]}]}");
  }
  std::string buffer_;
};

TEST_F(SideInputRegistry, EachKindOnceInItsOrderWithUniqueNames) {
  ASSERT_EQ(SideInputSpecs().size(), std::size(kEveryKind));
  std::set<std::string> names;
  for (size_t i = 0; i < SideInputSpecs().size(); ++i) {
    const SideInputSpec& spec = SideInputSpecs()[i];
    EXPECT_EQ(spec.kind, kEveryKind[i]) << spec.name;
    EXPECT_EQ(&FindSideInputSpec(spec.kind), &spec) << spec.name;
    EXPECT_TRUE(names.insert(spec.name).second) << "twice: " << spec.name;
    for (char c : std::string(spec.name)) EXPECT_TRUE((c >= 'a' && c <= 'z') || c == '_') << c;
    // Each text is one cell of the docs' table.
    for (const char* text : {spec.gives, spec.model_struct, spec.forms, spec.read_by}) {
      ASSERT_NE(text, nullptr) << spec.name;
      EXPECT_GE(std::strlen(text), 5u) << spec.name;
      EXPECT_EQ(std::strpbrk(text, "|\n"), nullptr) << spec.name << ": " << text;
    }
    EXPECT_NE(spec.form_of, nullptr) << spec.name;
    EXPECT_NE(spec.load, nullptr) << spec.name;
  }
  EXPECT_STREQ(FindSideInputSpec(SideInput::kHeapCheckpoints).name, "heap_checkpoints");
  EXPECT_STREQ(FindSideInputSpec(SideInput::kSamplingProfile).name, "sampling_profile");
  // Only tensors read from an ETDump need a value beside them.
  EXPECT_EQ(FindSideInputSpec(SideInput::kEtdumpDebugTensors).asks_for,
            ValueRole::kEtdumpDebugBuffer);
  EXPECT_EQ(FindSideInputSpec(SideInput::kTensorSet).asks_for, ValueRole::kEtdumpDebugBuffer);
  EXPECT_EQ(FindSideInputSpec(SideInput::kHeapCheckpoints).asks_for, std::nullopt);
  EXPECT_EQ(FindSideInputSpec(SideInput::kSamplingProfile).asks_for, std::nullopt);
}

TEST_F(SideInputRegistry, EachRowRecognisesAndReadsAFileOfItsKind) {
  // Heap checkpoints: the bytes of each checkpoint, where it was found.
  const std::string heap = HeapFile();
  EXPECT_STREQ(FindSideInputSpec(SideInput::kHeapCheckpoints).form_of(heap),
               "ExecuTorch heap file");
  htpscope::HeapFile checkpoints = LoadSideInput<SideInput::kHeapCheckpoints>(heap);
  EXPECT_EQ(checkpoints.path, heap);
  EXPECT_EQ(checkpoints.format, "ExecuTorch heap file");
  ASSERT_EQ(checkpoints.checkpoints.size(), 2u);
  EXPECT_EQ(checkpoints.checkpoints[0].value_bytes, 928212);
  EXPECT_EQ(checkpoints.checkpoints[1].value_bytes, 1060864);
  EXPECT_EQ(checkpoints.checkpoints[1].kind, HeapCheckpointKind::kAfterContextFreed);
  EXPECT_EQ(checkpoints.checkpoints[1].line, 2u);

  // A tensor set: a directory of .npy files, in natural order.
  const std::string npy = NpyDirectory();
  EXPECT_STREQ(FindSideInputSpec(SideInput::kTensorSet).form_of(npy), "directory of .npy files");
  TensorSet set = LoadSideInput<SideInput::kTensorSet>(npy);
  EXPECT_EQ(set.source, TensorSetSource::kNpyDirectory);
  ASSERT_EQ(set.tensors.size(), 2u);
  EXPECT_EQ(set.tensors[0].name, "conv");
  EXPECT_EQ(set.tensors[0].data.dtype, DType::kFloat32);
  EXPECT_EQ(set.tensors[1].name, "relu");
  EXPECT_EQ(set.tensors[1].data.dtype, DType::kUInt8);

  // An ETDump's debug tensors, their elements in the debug buffer.
  const std::string etdump = EtdumpWithDebugTensors();
  ASSERT_FALSE(etdump.empty());
  EXPECT_STREQ(FindSideInputSpec(SideInput::kEtdumpDebugTensors).form_of(etdump),
               "ExecuTorch ETDump");
  EXPECT_STREQ(FindSideInputSpec(SideInput::kTensorSet).form_of(etdump), "ExecuTorch ETDump");
  SideInputOptions with_buffer;
  with_buffer.debug_buffer = buffer_;
  TensorSet debug = LoadSideInput<SideInput::kEtdumpDebugTensors>(etdump, with_buffer);
  EXPECT_EQ(debug.source, TensorSetSource::kEtdump);
  ASSERT_EQ(debug.tensors.size(), 2u);
  EXPECT_EQ(debug.tensors[0].name, "debug_handle_1");
  EXPECT_EQ(debug.tensors[1].name, "debug_handle_2");
  EXPECT_EQ(debug.tensors[1].data.data_offset_bytes, 8u);
  TensorReader reader(debug.tensors[1]);
  std::vector<double> elements(reader.element_count());
  std::vector<char> scratch;
  reader.Read(0, elements.size(), elements.data(), scratch);
  EXPECT_EQ(elements, (std::vector<double>{0.25, 4.0, 8.0}));
  // Through the tensor set's row too, since the path is an ETDump.
  EXPECT_EQ(LoadSideInput<SideInput::kTensorSet>(etdump, with_buffer).tensors.size(), 2u);

  // A sampling profile: samples ÷ rate = seconds.
  const std::string profile = CollapsedStacks();
  EXPECT_STREQ(FindSideInputSpec(SideInput::kSamplingProfile).form_of(profile), "collapsed");
  LoweringProfile lowering = LoadSideInput<SideInput::kSamplingProfile>(profile);
  EXPECT_EQ(lowering.stacks.size(), 2u);
  EXPECT_EQ(lowering.samples, 150u);
  EXPECT_DOUBLE_EQ(lowering.total_seconds, 1.5);  // at py-spy's 100 Hz
  SideInputOptions at_50_hz;
  at_50_hz.lowering.sample_rate_hz = 50;
  EXPECT_DOUBLE_EQ(LoadSideInput<SideInput::kSamplingProfile>(profile, at_50_hz).total_seconds,
                   3.0);

  // Recognition that excludes: not an ETDump, not a tensor set, JSON of a
  // run artifact holds no heap checkpoints.
  EXPECT_EQ(FindSideInputSpec(SideInput::kEtdumpDebugTensors).form_of(heap), nullptr);
  EXPECT_EQ(FindSideInputSpec(SideInput::kTensorSet).form_of(heap), nullptr);
  const std::string optrace =
      Write("chrometrace.json", R"({"header": {"artifact_type": "OP_TRACE"}, "traceEvents": []})");
  EXPECT_EQ(FindSideInputSpec(SideInput::kHeapCheckpoints).form_of(optrace), nullptr);
}

// Errors name the file, whichever the kind; the value an ETDump needs is
// asked for by the row's role.
TEST_F(SideInputRegistry, ErrorsNameTheFileAndAskForTheRowsValue) {
  const std::string absent = dir_ + "/absent.bin";
  SideInputOptions options;
  options.debug_buffer = dir_ + "/debug_output.bin";
  for (const SideInputSpec& spec : SideInputSpecs()) {
    try {
      spec.load(absent, options);
      ADD_FAILURE() << spec.name << ": no error";
    } catch (const InputError& e) {
      EXPECT_EQ(e.file(), absent) << spec.name << ": " << e.what();
    }
  }
  const std::string etdump = EtdumpWithDebugTensors();
  ASSERT_FALSE(etdump.empty());
  for (SideInput kind : {SideInput::kTensorSet, SideInput::kEtdumpDebugTensors}) {
    const SideInputSpec& spec = FindSideInputSpec(kind);
    try {
      spec.load(etdump, SideInputOptions());
      ADD_FAILURE() << spec.name << ": no error";
    } catch (const InputNeedsValueError& e) {
      EXPECT_EQ(e.file(), etdump);
      EXPECT_EQ(e.needed(), spec.asks_for) << spec.name;
    }
  }
}

// docs/architecture.md's list of side inputs, as the registry declares them.
std::string SideInputsMarkdown() {
  std::string out =
      "| side input | gives | model struct | forms, and how each is recognised | read by | asks "
      "for |\n|---|---|---|---|---|---|\n";
  for (const SideInputSpec& spec : SideInputSpecs())
    out +=
        fmt::format("| `{}` | {} | {} | {} | {} | {} |\n", spec.name, spec.gives, spec.model_struct,
                    spec.forms, spec.read_by, spec.asks_for ? ValueRoleName(*spec.asks_for) : "—");
  return out;
}

TEST_F(SideInputRegistry, ArchitectureDocListsTheRegistry) {
  const std::string section =
      testing_support::ExpectDocSection("architecture.md", "side inputs", SideInputsMarkdown());
  for (const SideInputSpec& spec : SideInputSpecs())
    EXPECT_NE(section.find(fmt::format("| `{}` |", spec.name)), std::string::npos) << spec.name;
}

}  // namespace
}  // namespace htpscope::side_input_registry_test
