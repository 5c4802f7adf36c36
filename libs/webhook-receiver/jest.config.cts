module.exports = {
  displayName: 'webhook-receiver',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/libs/webhook-receiver',
};
