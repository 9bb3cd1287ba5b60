#ifndef C_OPENAPI_SPEC_H
#define C_OPENAPI_SPEC_H

/// The package's openapi.yaml, embedded at build time (C23 #embed in openapi.c): what
/// `GET /openapi.yaml` answers. Its bytes and length; read-only, static storage.
const unsigned char *jm_openapi_yaml_bytes(void);
unsigned long jm_openapi_yaml_length(void);

#endif
