module.exports = {
  displayName: 'webhooks-service',
  preset: '../../../jest.preset.js',
  coverageDirectory: '../../../coverage/libs/webhooks/service',
};
