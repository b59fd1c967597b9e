declare module 'heic-decode' {
  interface DecodedHeic {
    width: number;
    height: number;
    data: Uint8ClampedArray;
  }
  interface HeicImage {
    /** Size from the container (libheif's parse of the `ispe` property), known before decoding. */
    width: number;
    height: number;
    /** Decodes this image to RGBA pixels. */
    decode(): Promise<DecodedHeic>;
  }
  interface Decode {
    /** Decodes the first image of a HEIC file to RGBA pixels. */
    (input: { buffer: ArrayBufferLike | Uint8Array }): Promise<DecodedHeic>;
    /** Parses the container only: every image with its size, decoded on demand; call `dispose()` after. */
    all(input: { buffer: ArrayBufferLike | Uint8Array }): Promise<HeicImage[] & { dispose(): void }>;
  }
  const decode: Decode;
  export default decode;
}
