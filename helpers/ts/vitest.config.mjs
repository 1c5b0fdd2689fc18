// vitest runs the specs of vitest/ only: test/ is node:test's.
export default { test: { include: ['vitest/**/*.spec.mjs'], testTimeout: 60000, sequence: { concurrent: false } } };
