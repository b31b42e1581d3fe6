// The operator's code the main e2e runtime is started with (`serve --processors`): trusted code,
// referred to by name from topologies built in the designer (docs/SECURITY.md).

// KTable#transformValues' ValueTransformerWithKey: the card number masked, a tombstone kept.
export const valueTransformers = {
  maskCard: () => ({
    transform: (key, value) => (value === null ? null : { ...value, card: '****' }),
  }),
};
