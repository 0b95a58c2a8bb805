// Implemented in the next step.
#include "formats/profile_text.h"
