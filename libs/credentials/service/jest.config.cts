module.exports = {
  displayName: 'credentials-service',
  preset: '../../../jest.preset.js',
  coverageDirectory: '../../../coverage/libs/credentials/service',
};
