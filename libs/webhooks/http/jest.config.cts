module.exports = {
  displayName: 'webhooks-http',
  preset: '../../../jest.preset.js',
  coverageDirectory: '../../../coverage/libs/webhooks/http',
};
