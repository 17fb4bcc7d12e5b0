// `import LocalAuthentication` works unchanged: this module is LocalAuthClient under Apple's
// framework name (which re-exports Foundation and every LocalAuthentication type).

@_exported import LocalAuthClient
