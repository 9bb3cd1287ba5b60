// The service contract, openapi.yaml at the package root, embedded byte for byte when the
// target compiles (clang's #embed; the compiler's dependency file names the YAML, so editing
// it rebuilds this file). Written here; served by the server's OpenAPIRoute.
#include "COpenAPISpec.h"

#pragma clang diagnostic ignored "-Wc23-extensions"

static const unsigned char spec[] = {
#embed "../../openapi.yaml"
};

const unsigned char *jm_openapi_yaml_bytes(void) { return spec; }
unsigned long jm_openapi_yaml_length(void) { return sizeof(spec); }
