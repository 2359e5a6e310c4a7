//===- MonoidOps.h - monoid dialect operations ------------------*- C++ -*-===//
#ifndef ATTNCC_IR_MONOIDOPS_H
#define ATTNCC_IR_MONOIDOPS_H

#include "ir/MonoidDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "ir/MonoidOps.h.inc"

#endif // ATTNCC_IR_MONOIDOPS_H
