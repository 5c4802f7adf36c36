module.exports = {
  displayName: 'service-webhooks',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/libs/service-webhooks',
};
