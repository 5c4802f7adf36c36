module.exports = {
  displayName: 'webhook-receiver',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/libs/webhook-receiver',
  // The receiver is a standalone package: its tests need neither Postgres nor NATS, so the
  // workspace's infrastructure probe (a global setup in the preset) does not apply here.
  globalSetup: undefined,
};
