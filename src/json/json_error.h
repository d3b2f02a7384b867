// The one error the JSON layer throws: a JSON text or value that is not what the reader expects.
// Its message is one printable line that starts with the key path of the value
// ("cases[3].spec.dtype: unknown value 'bf17'"), or with where in the text parsing stopped
// ("not valid JSON at line 3, column 22: ..."). No nlohmann exception text is ever part of it.
#pragma once

#include <stdexcept>

namespace rkv {

struct JsonError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace rkv
