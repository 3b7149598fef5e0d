// A user's ONNX model as a construction: `check model --onnx FILE --task T` checks it on every input of a finite
// domain against a reference task (docs/model.md).
#pragma once

#include "checkers/construction.hpp"

namespace tverify::model {

Construction model_construction();

}  // namespace tverify::model
