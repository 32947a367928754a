// One registration function per kernel; each is defined in the kernel's own file and listed once
// in op_table.cc. Keep both lists sorted by op name; add a line, never rewrite others' lines.
#pragma once

#include "runtime/kernel_api.h"

namespace arenaplan::rt {

const KernelRegistration* Register_ABS();         // kernels/elementwise.cc
const KernelRegistration* Register_ADD();         // kernels/add.cc
const KernelRegistration* Register_ARG_MAX();     // kernels/compare.cc
const KernelRegistration* Register_ARG_MIN();     // kernels/compare.cc
const KernelRegistration* Register_ASSIGN_VARIABLE();  // kernels/resource_ops.cc
const KernelRegistration* Register_AVERAGE_POOL_2D();  // kernels/pooling.cc
const KernelRegistration* Register_BATCH_TO_SPACE_ND();  // kernels/space_batch.cc
const KernelRegistration* Register_CALL_ONCE();  // kernels/control_flow.cc
const KernelRegistration* Register_CAST();        // kernels/misc.cc
const KernelRegistration* Register_CEIL();        // kernels/elementwise.cc
const KernelRegistration* Register_CONCATENATION();  // kernels/concatenation.cc
const KernelRegistration* Register_CONV_2D();     // kernels/conv.cc
const KernelRegistration* Register_COS();         // kernels/elementwise.cc
const KernelRegistration* Register_DEPTHWISE_CONV_2D();  // kernels/depthwise_conv.cc
const KernelRegistration* Register_DEQUANTIZE();  // kernels/quantize.cc
const KernelRegistration* Register_DIV();         // kernels/misc.cc
const KernelRegistration* Register_EQUAL();       // kernels/compare.cc
const KernelRegistration* Register_EXP();         // kernels/elementwise.cc
const KernelRegistration* Register_EXPAND_DIMS();  // kernels/shape_ops.cc
const KernelRegistration* Register_FILL();        // kernels/misc.cc
const KernelRegistration* Register_FLOOR();       // kernels/elementwise.cc
const KernelRegistration* Register_FLOOR_DIV();   // kernels/misc.cc
const KernelRegistration* Register_FLOOR_MOD();   // kernels/misc.cc
const KernelRegistration* Register_FULLY_CONNECTED();  // kernels/fully_connected.cc
const KernelRegistration* Register_GATHER();      // kernels/gather.cc
const KernelRegistration* Register_GATHER_ND();   // kernels/gather.cc
const KernelRegistration* Register_GREATER();     // kernels/compare.cc
const KernelRegistration* Register_GREATER_EQUAL();  // kernels/compare.cc
const KernelRegistration* Register_IF();  // kernels/control_flow.cc
const KernelRegistration* Register_LEAKY_RELU();  // kernels/activations.cc
const KernelRegistration* Register_LESS();        // kernels/compare.cc
const KernelRegistration* Register_LESS_EQUAL();  // kernels/compare.cc
const KernelRegistration* Register_LOG();         // kernels/elementwise.cc
const KernelRegistration* Register_LOGICAL_NOT();  // kernels/elementwise.cc
const KernelRegistration* Register_LOGISTIC();    // kernels/activations.cc
const KernelRegistration* Register_MAXIMUM();     // kernels/compare.cc
const KernelRegistration* Register_MAX_POOL_2D(); // kernels/pooling.cc
const KernelRegistration* Register_MEAN();        // kernels/reduce.cc
const KernelRegistration* Register_MINIMUM();     // kernels/compare.cc
const KernelRegistration* Register_MUL();         // kernels/mul.cc
const KernelRegistration* Register_NEG();         // kernels/elementwise.cc
const KernelRegistration* Register_NOT_EQUAL();   // kernels/compare.cc
const KernelRegistration* Register_PACK();        // kernels/shape_ops.cc
const KernelRegistration* Register_PAD();         // kernels/pad.cc
const KernelRegistration* Register_PADV2();       // kernels/pad.cc
const KernelRegistration* Register_PRELU();       // kernels/misc.cc
const KernelRegistration* Register_QUANTIZE();    // kernels/quantize.cc
const KernelRegistration* Register_READ_VARIABLE();  // kernels/resource_ops.cc
const KernelRegistration* Register_REDUCE_MAX();  // kernels/reduce.cc
const KernelRegistration* Register_RELU();        // kernels/activations.cc
const KernelRegistration* Register_RELU6();       // kernels/activations.cc
const KernelRegistration* Register_RESHAPE();     // kernels/reshape.cc
const KernelRegistration* Register_RESIZE_NEAREST_NEIGHBOR();  // kernels/resize_nearest_neighbor.cc
const KernelRegistration* Register_REVERSE_V2();  // kernels/misc.cc
const KernelRegistration* Register_ROUND();       // kernels/elementwise.cc
const KernelRegistration* Register_RSQRT();       // kernels/elementwise.cc
const KernelRegistration* Register_SHAPE();       // kernels/shape_ops.cc
const KernelRegistration* Register_SIGNAL_ENERGY();  // kernels/signal_energy.cc
const KernelRegistration* Register_SIGNAL_FFT_AUTO_SCALE();  // kernels/signal_fft.cc
const KernelRegistration* Register_SIGNAL_FILTER_BANK();  // kernels/signal_filter_bank.cc
const KernelRegistration* Register_SIGNAL_FILTER_BANK_LOG();  // kernels/signal_filter_bank.cc
const KernelRegistration* Register_SIGNAL_FILTER_BANK_SPECTRAL_SUBTRACTION();  // kernels/signal_spectral_subtraction.cc
const KernelRegistration* Register_SIGNAL_FILTER_BANK_SQUARE_ROOT();  // kernels/signal_filter_bank.cc
const KernelRegistration* Register_SIGNAL_PCAN();  // kernels/signal_pcan.cc
const KernelRegistration* Register_SIGNAL_RFFT();  // kernels/signal_fft.cc
const KernelRegistration* Register_SIGNAL_WINDOW();  // kernels/signal_window.cc
const KernelRegistration* Register_SIN();         // kernels/elementwise.cc
const KernelRegistration* Register_SOFTMAX();     // kernels/softmax.cc
const KernelRegistration* Register_SPACE_TO_BATCH_ND();  // kernels/space_batch.cc
const KernelRegistration* Register_SPLIT();       // kernels/shape_ops.cc
const KernelRegistration* Register_SPLIT_V();     // kernels/shape_ops.cc
const KernelRegistration* Register_SQRT();        // kernels/elementwise.cc
const KernelRegistration* Register_SQUARE();      // kernels/elementwise.cc
const KernelRegistration* Register_SQUARED_DIFFERENCE();  // kernels/misc.cc
const KernelRegistration* Register_SQUEEZE();     // kernels/shape_ops.cc
const KernelRegistration* Register_STRIDED_SLICE();  // kernels/strided_slice.cc
const KernelRegistration* Register_SUB();         // kernels/sub.cc
const KernelRegistration* Register_SUM();         // kernels/reduce.cc
const KernelRegistration* Register_SVDF();         // kernels/svdf.cc
const KernelRegistration* Register_TANH();        // kernels/activations.cc
const KernelRegistration* Register_TRANSPOSE();   // kernels/transpose.cc
const KernelRegistration* Register_TRANSPOSE_CONV();  // kernels/transpose_conv.cc
const KernelRegistration* Register_UNIDIRECTIONAL_SEQUENCE_LSTM();  // kernels/lstm.cc
const KernelRegistration* Register_UNPACK();      // kernels/shape_ops.cc
const KernelRegistration* Register_VAR_HANDLE();  // kernels/resource_ops.cc
const KernelRegistration* Register_WHILE();  // kernels/control_flow.cc
const KernelRegistration* Register_ZEROS_LIKE();  // kernels/misc.cc

}  // namespace arenaplan::rt
