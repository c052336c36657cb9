fn main() {
    // Only the native addon needs the N-API link setup; the WASM and test builds do not.
    #[cfg(feature = "napi")]
    napi_build::setup();
}
