module.exports = {
  displayName: 'webhooks-contract',
  preset: '../../../jest.preset.js',
  coverageDirectory: '../../../coverage/libs/webhooks/contract',
};
